/**
 * Media that are links to files kept elsewhere (a video on a hosting site, a
 * photo on iNaturalist): the link is stored and returned, never fetched.
 */

/** The warehouse's media types for links. */
export const EXTERNAL_MEDIA_TYPES = ['Video:Youtube', 'Video:Vimeo', 'Audio:SoundCloud', 'Image:Flickr', 'Image:iNaturalist', 'Social:Facebook', 'Social:Twitter'] as const;

/** Longest link accepted (what browsers and link-sharing sites keep to). */
export const MAX_LINK_LENGTH = 2048;

/** A path with a scheme is a link; the name of a queued file never has one. */
export const isLink = (path: string): boolean => /^[A-Za-z][A-Za-z0-9+.-]*:/.test(path);

/** Why a link cannot be a medium's path, or undefined when it can. */
export function linkRefusal(link: string): string | undefined {
  if (link.length > MAX_LINK_LENGTH) return `The link may be at most ${MAX_LINK_LENGTH} characters long.`;
  // Control and invisible formatting characters (NUL, line breaks, bidirectional overrides) hide what a link is.
  if (/[\s\p{Cc}\p{Cf}]/u.test(link)) return 'The link may not contain spaces, control or formatting characters.';
  if (!/^https:\/\//i.test(link)) return 'Only https:// links may be given as the path.';
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return 'The link is not a valid URL.';
  }
  if (!url.hostname) return 'The link must name a host.';
  if (url.username || url.password) return 'The link may not carry a user name or password.';
  return undefined;
}

/** The warehouse's spelling of an external media type given in any case, or undefined when it is not one. */
export function externalMediaType(given: string | undefined): string | undefined {
  const lower = given?.toLowerCase();
  return EXTERNAL_MEDIA_TYPES.find((type) => type.toLowerCase() === lower);
}
