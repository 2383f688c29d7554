import { HttpError } from '@anvil/http';

/**
 * A snippet service failure as GitLab's snippet routes render it: `{"message":{"error":"<messages>"}}`
 * with the status of its reason (`lib/api/helpers/snippets/http_response_map.rb`): 400 for failed
 * saves and commits, 422 for invalid file actions.
 */
export class SnippetServiceError extends HttpError {
  constructor(message: string, status = 400) {
    super(status, { message: { error: message } });
  }
}

/** Rails' `Array#to_sentence`: `a`, `a and b`, `a, b, and c`. */
export function toSentence(messages: string[]): string {
  if (messages.length <= 2) return messages.join(' and ');
  return `${messages.slice(0, -1).join(', ')}, and ${messages[messages.length - 1]}`;
}
