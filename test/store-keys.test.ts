/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - K5 — Key names never change. Each feature builds its store keys in its own keys file; moving a builder from one
 *   file to another keeps the string it builds, byte for byte, so data written by an earlier version is found again.
 */
import { describe, expect, it } from 'vitest';
import { examKeys } from '../src/exams/exam-keys.js';
import { KEY_PREFIX, keys } from '../src/store/keys.js';

describe('store key names', () => {
  it('K5: the store keeps the prefix and its own keys', () => {
    expect(KEY_PREFIX).toBe('lectern:');
    expect(keys.health()).toBe('lectern:health');
    expect(keys.nodeHeartbeat('n1')).toBe('lectern:node:n1');
  });

  it('K5: the live exams build the same keys as before', () => {
    expect(examKeys.exam('e1')).toBe('lectern:exam:e1');
    expect(examKeys.examPublication('e1')).toBe('lectern:exam:e1:publication');
    expect(examKeys.examClosed('e1')).toBe('lectern:exam:e1:closed');
    expect(examKeys.examStudents('e1')).toBe('lectern:exam:e1:students');
    expect(examKeys.examAudit('e1')).toBe('lectern:exam:e1:audit');
    expect(examKeys.examDetached('e1', 3)).toBe('lectern:exam:e1:detached:3');
    expect(examKeys.examDrafts('e1', 's1')).toBe('lectern:exam:e1:drafts:s1');
    expect(examKeys.examSubmitted('e1', 's1')).toBe('lectern:exam:e1:submitted:s1');
    expect(examKeys.examGrades('e1', 's1')).toBe('lectern:exam:e1:grades:s1');
    expect(examKeys.examOverrides('e1', 's1')).toBe('lectern:exam:e1:overrides:s1');
    expect(examKeys.examRegrades('e1', 's1')).toBe('lectern:exam:e1:regrades:s1');
    expect(examKeys.examReport('e1', 's1')).toBe('lectern:exam:e1:report:s1');
    expect(examKeys.examGrading('e1', 's1')).toBe('lectern:exam:e1:grading:s1');
    expect(examKeys.examGradingLease('e1', 's1')).toBe('lectern:exam:e1:grading-lease:s1');
    expect(examKeys.accountExams('a1')).toBe('lectern:account:a1:exams');
    expect(examKeys.accountExams('a1', 'm1')).toBe('lectern:account:a1:exams:m1');
    expect(examKeys.materialExams('m1')).toBe('lectern:material:m1:exams');
    expect(examKeys.classExams('c1')).toBe('lectern:class:c1:exams');
    expect(examKeys.classProfile('c1', 's1')).toBe('lectern:class:c1:profile:s1');
    expect(examKeys.classProfiles('c1')).toBe('lectern:class:c1:profiles');
    expect(examKeys.examsOpen()).toBe('lectern:exams:open');
    expect(examKeys.examsPending()).toBe('lectern:exams:pending');
    expect(examKeys.examsGrading()).toBe('lectern:exams:grading');
  });
});
