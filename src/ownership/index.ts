/** Ownership (issue 12): which account owns each class, quiz, room and material, and each account's lists. */
export { OwnershipRepository, type OwnedKind } from './ownership-repository.js';
export { CredentialChecks, classNotFound, roomNotFound, signInAgain, type CredentialCheckDeps, type ScopedToken } from './credential-checks.js';
