import { hash } from 'node:crypto';

/** Texts seen once that are remembered, waiting for a second run. */
const SEEN_KEPT = 1_000;

/**
 * Names for statements records runs again and again (sample trees of the shape
 * a client sends each time), so that each connection parses and plans such a
 * text once and then runs it by name. A connection keeps what it prepared until
 * it closes, so names are handed out sparingly: a text is named from its second
 * run on, and at most `limit` texts are ever named by one process; any other
 * runs unnamed, parsed each time.
 */
export class StatementNames {
  private readonly names = new Map<string, string>();
  private readonly seen = new Set<string>();
  private readonly prefix: string;
  private readonly limit: number;

  constructor(prefix: string, limit: number) {
    this.prefix = prefix;
    this.limit = limit;
  }

  /** The name to run `text` by, or undefined to run it unnamed. The same text always gets the same name. */
  nameOf(text: string): string | undefined {
    const name = this.names.get(text);
    if (name !== undefined || this.names.size >= this.limit) return name;
    if (!this.seen.delete(text)) {
      if (this.seen.size >= SEEN_KEPT) this.seen.clear();
      this.seen.add(text);
      return undefined;
    }
    const made = `${this.prefix}_${hash('sha1', text, 'base64url')}`;
    this.names.set(text, made);
    return made;
  }
}

/**
 * Names for pages of a user's own samples or occurrences without filters (with or without a
 * website: four texts), so that each connection plans them once: for any user the plan is the walk
 * of the `(created_by_id, id)` index. A page with filters is planned for its values, where an index
 * of a filter's field may serve better.
 */
const UNFILTERED_PAGES = new StatementNames('page', 8);

/** The name to run a page's `text` by: one for a page without filters, none for a filtered one. */
export const pageStatementName = (text: string, filters: Record<string, string>): string | undefined =>
  Object.keys(filters).length === 0 ? UNFILTERED_PAGES.nameOf(text) : undefined;
