import type { Request } from 'express';

/** Where people reach this server: PUBLIC_URL when set, else the request's own scheme and host. */
export function publicBase(request: Request, publicUrl: string | undefined): string {
  return publicUrl ?? `${request.protocol}://${request.get('host') ?? 'localhost'}`;
}

/** The sign-up page with an invite code (the page reads `invite` and sends it with the sign-up). */
export function inviteUrl(request: Request, publicUrl: string | undefined, code: string): string {
  return `${publicBase(request, publicUrl)}/signup?invite=${code}`;
}

/** The password reset page with a one-time code (the page sends it to `POST /api/auth/reset`). */
export function resetUrl(request: Request, publicUrl: string | undefined, code: string): string {
  return `${publicBase(request, publicUrl)}/reset-password?code=${code}`;
}
