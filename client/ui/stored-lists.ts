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

/** A class the instructor made on this browser (kept by the monitor page; the host page reads it). */
export interface StoredClass {
  classId: string;
  code: string;
  instructorToken: string;
  name: string;
  materialId: string | null;
  createdAt: number;
}

export const hostedRooms = new RememberedList<HostedRoom>(
  'lectern.host.rooms',
  (entry) => entry.roomId,
  (entry) => typeof entry.roomId === 'string' && typeof entry.hostToken === 'string',
  20,
);

export const storedClasses = new RememberedList<StoredClass>(
  'lectern.monitor.classes',
  (entry) => entry.classId,
  (entry) => typeof entry.classId === 'string' && typeof entry.instructorToken === 'string',
);

/** The classId of the class open in the monitor; the host page preselects it. */
export const CURRENT_CLASS_KEY = 'lectern.monitor.current';
