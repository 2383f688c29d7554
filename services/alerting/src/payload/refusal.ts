/**
 * A notify request refused with a bare status, as GitLab's notify controller answers (`head`): no
 * body. 400 for a payload refused, 401 for any credential or endpoint that does not match, 429 when
 * the project's notify limit is reached.
 */
export class NotifyRefusal extends Error {
  constructor(
    readonly status: 400 | 401 | 429,
    readonly headers: Record<string, string> = {},
  ) {
    super(`notify refused: ${status}`);
    this.name = 'NotifyRefusal';
  }
}
