/**
 * Ownership: which account owns each class, quiz, room and material, and each account's lists. A class, quiz and room
 * has one owner (owner:{kind}:{id}); a material has a set of owners (a material is content-addressed, so two accounts
 * uploading the same bytes both own it). Each account has a sorted set per kind that its lists page through; the owner
 * is written before the list entry, so a list never names a thing nobody owns. data/'s deletions forget ownership in
 * the same step. Instructor and host tokens are checked against their account here.
 */
export { OwnershipRepository, type OwnedKind } from './ownership-repository.js';
export { ownershipKeys } from './ownership-keys.js';
export { CredentialChecks, classNotFound, roomNotFound, signInAgain, type CredentialCheckDeps, type ScopedToken } from './credential-checks.js';
