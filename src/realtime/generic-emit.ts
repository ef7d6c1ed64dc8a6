/**
 * socket.io's typed `emit` checks a literal event name against its map but cannot follow a generic one
 * (`<K extends keyof Events>(event: K, payload: Events[K])`). Ports whose own signature already ties each name to its
 * payload (SessionPort, MonitorPort) hand the event over through this, the one untyped step.
 */
export function genericEmit(target: { emit(...args: never[]): boolean }): (event: string, payload: unknown) => void {
  const emit = target.emit as unknown as (this: unknown, event: string, payload: unknown) => boolean;
  return (event, payload) => void emit.call(target, event, payload);
}
