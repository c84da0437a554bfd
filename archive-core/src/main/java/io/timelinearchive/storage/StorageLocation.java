package io.timelinearchive.storage;

import static java.util.Objects.requireNonNull;

/**
 * A file or folder on some storage, written {@code scheme://authority/path}.
 *
 * <p>Not a {@link java.net.URI}: object keys are kept exactly as written (no escaping, no
 * normalisation), so a key with a space or a {@code %} names the same object everywhere. The path
 * never starts or ends with {@code /}; the empty path is the root of the authority. A bare absolute
 * path such as {@code /data/t} is read as {@code file:///data/t}.
 *
 * @param scheme the scheme, e.g. {@code s3}
 * @param authority the bucket, container or host, possibly empty
 * @param path the path below the authority, without leading or trailing {@code /}
 */
public record StorageLocation(String scheme, String authority, String path) {

  /**
   * @param scheme the scheme
   * @param authority the bucket, container or host, possibly empty
   * @param path the path below the authority
   * @throws IllegalArgumentException naming the part that is not valid
   */
  public StorageLocation {
    requireNonNull(scheme, "scheme is null");
    requireNonNull(authority, "authority is null");
    requireNonNull(path, "path is null");
    if (!isScheme(scheme)) {
      throw new IllegalArgumentException("invalid scheme '" + scheme + "'");
    }
    if (authority.contains("/")) {
      throw new IllegalArgumentException("invalid authority '" + authority + "'");
    }
    if (path.startsWith("/") || path.endsWith("/")) {
      throw new IllegalArgumentException(
          "invalid path '" + path + "': it must not start or end with /");
    }
    if (!path.isEmpty()) {
      checkSegments(path, path);
    }
  }

  /**
   * Parses {@code scheme://authority/path}, {@code scheme:/path} (Hadoop style, empty authority) or
   * a bare absolute local path. Trailing slashes are dropped.
   *
   * @param text the location as written
   * @return the location
   * @throws IllegalArgumentException naming the text when it is not a location
   */
  public static StorageLocation of(String text) {
    requireNonNull(text, "location is null");
    String s = text.strip();
    int colon = s.indexOf(':');
    if (!s.startsWith("/") && colon <= 0) {
      throw new IllegalArgumentException(
          "invalid location '" + text + "': expected scheme://authority/path or an absolute path");
    }
    try {
      if (s.startsWith("/")) {
        return new StorageLocation("file", "", trimSlashes(s, text));
      }
      String scheme = s.substring(0, colon);
      String rest = s.substring(colon + 1);
      if (rest.startsWith("//")) {
        rest = rest.substring(2);
        int slash = rest.indexOf('/');
        String authority = slash < 0 ? rest : rest.substring(0, slash);
        String path = slash < 0 ? "" : trimSlashes(rest.substring(slash), text);
        return new StorageLocation(scheme.toLowerCase(java.util.Locale.ROOT), authority, path);
      }
      if (rest.startsWith("/")) {
        return new StorageLocation(
            scheme.toLowerCase(java.util.Locale.ROOT), "", trimSlashes(rest, text));
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("invalid location '" + text + "': " + e.getMessage(), e);
    }
    throw new IllegalArgumentException(
        "invalid location '" + text + "': expected scheme://authority/path or an absolute path");
  }

  /**
   * The location of {@code child} below this one. The child may hold several segments separated by
   * {@code /}.
   *
   * @param child a relative path
   * @return the location below this one
   * @throws IllegalArgumentException if the child is absolute, empty, or has an empty, {@code .} or
   *     {@code ..} segment
   */
  public StorageLocation resolve(String child) {
    requireNonNull(child, "child is null");
    if (child.isEmpty() || child.startsWith("/")) {
      throw new IllegalArgumentException("invalid child '" + child + "' of " + this);
    }
    checkSegments(child, child);
    return new StorageLocation(scheme, authority, path.isEmpty() ? child : path + "/" + child);
  }

  /**
   * @return the last segment of the path, or the empty string for a root
   */
  public String fileName() {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  /**
   * The folder holding this location.
   *
   * @return the parent folder
   * @throws IllegalStateException for a root
   */
  public StorageLocation parent() {
    if (path.isEmpty()) {
      throw new IllegalStateException("a root has no parent: " + this);
    }
    int slash = path.lastIndexOf('/');
    return new StorageLocation(scheme, authority, slash < 0 ? "" : path.substring(0, slash));
  }

  @Override
  public String toString() {
    return scheme + "://" + authority + "/" + path;
  }

  // Scanned by hand, not with a regular expression or split: every listed file is a location, and
  // those cost a tenth of listing a large timeline.
  private static boolean isScheme(String scheme) {
    if (scheme.isEmpty() || !isAsciiLetter(scheme.charAt(0))) {
      return false;
    }
    for (int i = 1; i < scheme.length(); i++) {
      char c = scheme.charAt(i);
      if (!isAsciiLetter(c) && !(c >= '0' && c <= '9') && c != '+' && c != '.' && c != '-') {
        return false;
      }
    }
    return true;
  }

  private static boolean isAsciiLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  /** Refuses an empty, {@code .} or {@code ..} segment of {@code segments}. */
  private static void checkSegments(String segments, String where) {
    int start = 0;
    while (true) {
      int end = segments.indexOf('/', start);
      int stop = end < 0 ? segments.length() : end;
      int length = stop - start;
      if (length == 0
          || (length == 1 && segments.charAt(start) == '.')
          || (length == 2 && segments.charAt(start) == '.' && segments.charAt(start + 1) == '.')) {
        throw new IllegalArgumentException(
            "invalid path '" + where + "': empty, '.' or '..' segment");
      }
      if (end < 0) {
        return;
      }
      start = end + 1;
    }
  }

  private static String trimSlashes(String path, String text) {
    int start = 0;
    int end = path.length();
    while (start < end && path.charAt(start) == '/') {
      start++;
    }
    while (end > start && path.charAt(end - 1) == '/') {
      end--;
    }
    return path.substring(start, end);
  }
}
