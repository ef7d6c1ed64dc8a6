/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - K5 — Key names never change. Each feature builds its store keys in its own keys file; moving a builder from one
 *   file to another keeps the string it builds, byte for byte, so data written by an earlier version is found again.
 */
import { describe, expect, it } from 'vitest';
import { examKeys } from '../src/exams/exam-keys.js';
import { ltiKeys } from '../src/lti/lti-keys.js';
import { authKeys } from '../src/auth/auth-keys.js';
import { jobKeys } from '../src/jobs/job-keys.js';
import { quotaKeys } from '../src/quota/quota-keys.js';
import { ownershipKeys } from '../src/ownership/ownership-keys.js';
import { quizKeys } from '../src/quiz/quiz-keys.js';
import { limitKeys } from '../src/boundary/limit-keys.js';
import { dataKeys } from '../src/data/data-keys.js';
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

  it('K5: the LMS integration builds the same keys as before', () => {
    expect(ltiKeys.ltiToolKeys()).toBe('lectern:lti:tool-keys');
    expect(ltiKeys.ltiPlatform('p1')).toBe('lectern:lti:platform:p1');
    expect(ltiKeys.ltiPlatforms()).toBe('lectern:lti:platforms');
    expect(ltiKeys.ltiIssuer('h1')).toBe('lectern:lti:issuer:h1');
    expect(ltiKeys.ltiPlatformLinks('p1')).toBe('lectern:lti:platform:p1:links');
    expect(ltiKeys.ltiPlatformClasses('p1')).toBe('lectern:lti:platform:p1:classes');
    expect(ltiKeys.ltiLink('l1')).toBe('lectern:lti:link:l1');
    expect(ltiKeys.ltiClass('c1')).toBe('lectern:lti:class:c1');
    expect(ltiKeys.ltiClassMembers('c1')).toBe('lectern:lti:class:c1:members');
    expect(ltiKeys.ltiClassGrades('c1')).toBe('lectern:lti:class:c1:grades');
    expect(ltiKeys.ltiGradesPending()).toBe('lectern:lti:grades:pending');
    expect(ltiKeys.ltiGradesLease()).toBe('lectern:lti:grades:lease');
    expect(ltiKeys.ltiRegistrationCode('h1')).toBe('lectern:lti:registration-code:h1');
    expect(ltiKeys.ltiLogin('h1')).toBe('lectern:lti:login:h1');
    expect(ltiKeys.ltiNonce('h1')).toBe('lectern:lti:nonce:h1');
    expect(ltiKeys.ltiDeepLink('h1')).toBe('lectern:lti:deep-link:h1');
    expect(ltiKeys.ltiSignIn('h1')).toBe('lectern:lti:sign-in:h1');
    expect(ltiKeys.ltiQuizTicket('h1')).toBe('lectern:lti:quiz-ticket:h1');
    expect(ltiKeys.ltiAccessToken('p1', 'h1')).toBe('lectern:lti:access-token:p1:h1');
    expect(ltiKeys.ltiRosterSync('c1')).toBe('lectern:lti:roster-sync:c1');
  });

  it('K5: the credentials build the same keys as before', () => {
    expect(authKeys.tokenSecret()).toBe('lectern:token-secret');
    expect(authKeys.oidcPendingLogin('s1')).toBe('lectern:oidc:pending:s1');
    expect(authKeys.account('a1')).toBe('lectern:account:a1');
    expect(authKeys.accountEmail('h1')).toBe('lectern:account-email:h1');
    expect(authKeys.accountIdentity('h1')).toBe('lectern:account-identity:h1');
    expect(authKeys.accountAdmin()).toBe('lectern:accounts:admin');
    expect(authKeys.accountIndex()).toBe('lectern:accounts');
    expect(authKeys.webSession('h1')).toBe('lectern:web-session:h1');
    expect(authKeys.accountWebSessions('a1')).toBe('lectern:account:a1:web-sessions');
    expect(authKeys.apiToken('h1')).toBe('lectern:api-token:h1');
    expect(authKeys.accountApiTokens('a1')).toBe('lectern:account:a1:api-tokens');
    expect(authKeys.accountApiTokenUse('a1')).toBe('lectern:account:a1:api-token-use');
    expect(authKeys.invite('h1')).toBe('lectern:invite:h1');
    expect(authKeys.resetLink('h1')).toBe('lectern:reset-link:h1');
  });

  it('K5: the background jobs build the same keys as before', () => {
    expect(jobKeys.job('j1')).toBe('lectern:job:j1');
    expect(jobKeys.jobLease('j1')).toBe('lectern:job:j1:lease');
    expect(jobKeys.jobCancel('j1')).toBe('lectern:job:j1:cancel');
    expect(jobKeys.activeJobs()).toBe('lectern:jobs:active');
  });

  it('K5: the quotas build the same keys as before', () => {
    expect(quotaKeys.quota('account', 'a1')).toBe('lectern:quota:account:a1');
    expect(quotaKeys.quota('class', 'c1')).toBe('lectern:quota:class:c1');
    expect(quotaKeys.quotaRooms('class', 'c1')).toBe('lectern:quota:class:c1:rooms');
    expect(quotaKeys.quotaMaterial('m1')).toBe('lectern:quota:material:m1');
  });

  it('K5: ownership builds the same keys as before', () => {
    expect(ownershipKeys.ownerOf('quiz', 'q1')).toBe('lectern:owner:quiz:q1');
    expect(ownershipKeys.ownerOf('class', 'c1')).toBe('lectern:owner:class:c1');
    expect(ownershipKeys.materialOwners('m1')).toBe('lectern:material:m1:owners');
    expect(ownershipKeys.accountOwned('a1', 'rooms')).toBe('lectern:account:a1:owned:rooms');
    expect(ownershipKeys.quizRooms('q1')).toBe('lectern:quiz:q1:rooms');
  });

  it('K5: the quiz pictures build the same keys as before', () => {
    expect(quizKeys.quizImage('i1')).toBe('lectern:quiz-image:i1');
    expect(quizKeys.quizImageQuizzes('i1')).toBe('lectern:quiz-image:i1:quizzes');
    expect(quizKeys.quizImageDeleting('i1')).toBe('lectern:quiz-image:i1:deleting');
    expect(quizKeys.retentionImagesBackfilled()).toBe('lectern:retention:quiz-images:backfilled');
    expect(quizKeys.accountQuizImages('a1')).toBe('lectern:account:a1:quiz-images');
  });

  it('K5: the limits build the same keys as before', () => {
    expect(limitKeys.rateLimit('login', '1.2.3.4', 42)).toBe('lectern:rate:login:1.2.3.4:42');
    expect(limitKeys.joinBucket('1.2.3.4')).toBe('lectern:rate:join-bucket:1.2.3.4');
  });

  it('K5: the retention purge builds the same keys as before', () => {
    expect(quizKeys.retentionRooms()).toBe('lectern:retention:rooms');
    expect(quizKeys.retentionImages()).toBe('lectern:retention:quiz-images');
    expect(quizKeys.roomQuestionResults('r1')).toBe('lectern:room:r1:question-results');
    expect(dataKeys.retentionLease()).toBe('lectern:retention:lease');
  });
});
