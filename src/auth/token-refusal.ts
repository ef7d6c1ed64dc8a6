import { AppError } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { TokenCheck, TokenKind, TokenPayload, TokenSigner } from './tokens.js';

/** Why a token was refused: unreadable, not signed by us, expired, or valid but of another kind. */
export type TokenRefusalReason = Extract<TokenCheck, { ok: false }>['reason'];

/**
 * A refused token, the same on every boundary: a token of another kind is `403 FORBIDDEN` (it proves who the
 * caller is, just not someone allowed here); anything else — missing, malformed, forged, tampered, expired — is
 * `401 UNAUTHORIZED`. HTTP answers it from the error middleware; every socket namespace turns it into its
 * `connect_error` (realtime/connect-refusal.ts), keeping `reason` in the details.
 */
export class TokenRefusal extends AppError {
  constructor(
    readonly reason: TokenRefusalReason,
    kinds: readonly TokenKind[],
  ) {
    const kind = reason === 'kind';
    super(kind ? ErrorCode.FORBIDDEN : ErrorCode.UNAUTHORIZED, refusalMessage(reason, kinds));
    this.name = 'TokenRefusal';
  }
}

export function isTokenRefusal(error: unknown): error is TokenRefusal {
  return error instanceof TokenRefusal;
}

/** The payload of `token` when it is valid and of one of `kinds`; otherwise throws a {@link TokenRefusal}. */
export function authorizeToken(signer: TokenSigner, token: unknown, kinds: readonly TokenKind[]): TokenPayload {
  const check = signer.verify(token, kinds);
  if (!check.ok) throw new TokenRefusal(check.reason, kinds);
  return check.payload;
}

const KIND_NAMES: Record<TokenKind, string> = { instructor: '강사', host: '퀴즈 진행자', player: '퀴즈 참가자', session: '학생', job: '작업 진행 상황' };

function refusalMessage(reason: TokenRefusalReason, kinds: readonly TokenKind[]): string {
  const wanted = kinds.map((kind) => KIND_NAMES[kind]).join(' 또는 ');
  // People read these (the word 토큰 means nothing to them): speak of 접속 권한, the thing they hold.
  if (reason === 'kind') return `${wanted} 접속 권한이 아닙니다.`;
  if (reason === 'expired') return '접속 권한이 만료되었습니다. 처음 화면에서 다시 들어와 주세요.';
  return `${wanted} 접속 권한이 필요합니다. 처음 화면에서 다시 들어와 주세요.`;
}
