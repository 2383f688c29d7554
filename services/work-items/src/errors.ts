import { HttpError } from '@anvil/http';

/** GitLab's rescue of ActiveRecord::RecordNotFound: `404 {"message":"404 Not found"}` (lower-case "found"). */
export class RecordNotFoundError extends HttpError {
  constructor() {
    super(404, { message: '404 Not found' });
  }
}
