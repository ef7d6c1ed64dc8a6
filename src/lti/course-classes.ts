import type { Logger } from '../kernel/index.js';
import type { Store } from '../store/index.js';
import { CLAIM, displayName, teaches, type LaunchPayload } from './lti-claims.js';
import type { CourseMember, CourseRecord, CourseRepository } from './course-repository.js';
import type { LtiPorts } from './lti-ports.js';
import type { PlatformClient } from './platform-client.js';
import type { PlatformRecord } from './platform-record.js';
import { courseKey, sha256, type PlatformRepository } from './platform-repository.js';
import { ltiKeys } from './lti-keys.js';

/**
 * LMS courses as lectern classes: one class per course, owner account and material (a course may hold lectures and
 * exams of several materials and several teachers), made on the first launch or deep link that needs it and owned by
 * the teacher who linked the resource. A student of the course is one session of that class, joined under their LMS
 * name, found again on every launch (and made ahead of time when the roster is read from the LMS), so the monitor,
 * the exam results and the gradebook all speak of the same person.
 */

/** How often an instructor's launch reads the course roster again (a button forces it). */
const ROSTER_SYNC_EVERY_MS = 10 * 60_000;

export interface CourseClassesOptions {
  store: Store;
  platforms: PlatformRepository;
  courses: CourseRepository;
  client: PlatformClient;
  ports: LtiPorts;
  now: () => number;
  logger: Logger;
}

/** The course of a launch: its context claim, or the platform's deployment when the LMS sends none. */
export function courseOf(payload: LaunchPayload): { id: string; title: string } {
  const context = payload[CLAIM.context];
  if (context) return { id: context.id, title: (context.title ?? context.label ?? '').trim() || 'LMS 강좌' };
  return { id: `deployment:${payload[CLAIM.deploymentId]}`, title: 'LMS 강좌' };
}

/** A stable key of an LMS user: the platform's issuer and the user's `sub`. */
export const userHash = (platform: PlatformRecord, subject: string) => sha256(`${platform.issuer} ${subject}`);

export class CourseClasses {
  constructor(private readonly options: CourseClassesOptions) {}

  /** The class of the course for the owner's material, made when missing (or when its class was deleted). */
  async ensure(platform: PlatformRecord, course: { id: string; title: string }, accountId: string, material: { id: string; title: string }): Promise<CourseRecord> {
    const { platforms, courses, ports, now } = this.options;
    const key = courseKey(course.id, accountId, material.id);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const existing = await platforms.courseClass(platform.platformId, key);
      if (existing !== null) {
        const record = await courses.course(existing);
        if (record && (await ports.classExists(existing))) return record;
        // Its class was deleted (with its course record): free the place and make a new one.
        await platforms.forgetCourseClass(platform.platformId, key, existing);
        continue;
      }
      const classId = await ports.createClass(accountId, `${course.title} · ${material.title}`.slice(0, 100), material.id);
      const holder = await platforms.claimCourseClass(platform.platformId, key, classId);
      if (holder !== classId) {
        // Two first launches raced: the other class holds the course; ours goes.
        await ports.deleteClass(classId);
        continue;
      }
      const record: CourseRecord = {
        classId,
        platformId: platform.platformId,
        contextId: course.id,
        contextTitle: course.title,
        courseKey: key,
        accountId,
        materialId: material.id,
        createdAt: now(),
      };
      await courses.saveCourse(record);
      return record;
    }
    throw new Error('no class for the LMS course after several attempts');
  }

  /** Keeps the latest service URLs a launch carried (AGS line items, NRPS roster) on the course's class. */
  async noteServices(course: CourseRecord, payload: LaunchPayload): Promise<CourseRecord> {
    const lineItemsUrl = payload[CLAIM.gradeService]?.lineitems ?? course.lineItemsUrl;
    const membershipsUrl = payload[CLAIM.namesRoles]?.context_memberships_url ?? course.membershipsUrl;
    if (lineItemsUrl === course.lineItemsUrl && membershipsUrl === course.membershipsUrl) return course;
    const updated: CourseRecord = { ...course, ...(lineItemsUrl ? { lineItemsUrl } : {}), ...(membershipsUrl ? { membershipsUrl } : {}) };
    await this.options.courses.saveCourse(updated);
    return updated;
  }

  /** The student's class session (found again, or joined under their LMS name) and a fresh token for it. */
  async student(platform: PlatformRecord, course: CourseRecord, payload: LaunchPayload): Promise<{ sessionId: string; token: string; nickname: string }> {
    const name = displayName(payload) ?? `학생 ${payload.sub.slice(-4)}`;
    return this.seat(course.classId, userHash(platform, payload.sub), {
      userId: payload.sub,
      name,
      roles: payload[CLAIM.roles],
      active: true,
    });
  }

  /**
   * Reads the course roster from the LMS (NRPS) and gives every active student a session of the class under their
   * LMS name, so the monitor and the exam's absent list show the whole course before anyone launched. Teachers are
   * kept as members without a session. At most once per 10 minutes unless `force`d. Answers how many students the
   * course has, or null when it was read lately or the LMS offers no roster.
   */
  async syncRoster(classId: string, force = false): Promise<{ students: number; joined: number } | null> {
    const { store, platforms, courses, client, logger } = this.options;
    const course = await courses.course(classId);
    if (!course?.membershipsUrl) return null;
    const platform = await platforms.get(course.platformId);
    if (!platform) return null;
    const fresh = await store.set(ltiKeys.ltiRosterSync(classId), String(this.options.now()), { nx: !force, ttlMs: ROSTER_SYNC_EVERY_MS });
    if (!fresh) return null;
    const members = await client.members(platform, course.membershipsUrl);
    let students = 0;
    let joined = 0;
    for (const member of members) {
      const hash = userHash(platform, member.user_id);
      const name = displayName(member) ?? `학생 ${member.user_id.slice(-4)}`;
      const entry: CourseMember = { userId: member.user_id, name, roles: member.roles, active: member.status === 'Active' };
      if (teaches(member.roles) || member.status !== 'Active') {
        const known = await courses.member(classId, hash);
        await courses.saveMember(classId, hash, { ...entry, ...(known?.sessionId ? { sessionId: known.sessionId } : {}) });
        continue;
      }
      students += 1;
      const before = await courses.member(classId, hash);
      await this.seat(classId, hash, entry);
      if (!before?.sessionId) joined += 1;
    }
    logger.info({ classId, members: members.length, students, joined }, 'lti roster read');
    return { students, joined };
  }

  /** The member's session of the class: the one they have while it lives, else a new one under their name. */
  private async seat(classId: string, hash: string, entry: CourseMember): Promise<{ sessionId: string; token: string; nickname: string }> {
    const { courses, ports } = this.options;
    const known = await courses.member(classId, hash);
    if (known?.sessionId) {
      const resumed = await ports.resumeSession(known.sessionId, classId);
      if (resumed) {
        await courses.saveMember(classId, hash, { ...entry, sessionId: known.sessionId });
        return { sessionId: known.sessionId, ...resumed };
      }
    }
    const joined = await ports.joinClass(classId, entry.name);
    await courses.saveMember(classId, hash, { ...entry, sessionId: joined.sessionId });
    return joined;
  }
}
