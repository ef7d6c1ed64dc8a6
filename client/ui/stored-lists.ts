import { RememberedList } from './remembered-list.js';

/** A room this browser hosts (the host token re-opens it). */
export interface HostedRoom {
  roomId: string;
  code: string;
  hostToken: string;
  title: string;
  classId: string;
  createdAt: number;
  ended?: boolean;
}

export const hostedRooms = new RememberedList<HostedRoom>(
  'lectern.host.rooms',
  (entry) => entry.roomId,
  (entry) => typeof entry.roomId === 'string' && typeof entry.hostToken === 'string',
  20,
);

/** The classId last opened in the monitor or the host page (only a choice remembered: classes live on the server). */
export const CURRENT_CLASS_KEY = 'lectern.monitor.current';
