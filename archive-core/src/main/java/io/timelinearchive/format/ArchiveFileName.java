package io.timelinearchive.format;

import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Names of archive log files: {@code .commits_.archive.<version>_1-0-1}. */
public final class ArchiveFileName {
  // Hudi's own pattern: it also accepts other write tokens after the version, and so do we.
  private static final Pattern NAME = Pattern.compile("^\\.commits_\\.archive\\.(\\d+)(_.*)?$");

  private ArchiveFileName() {}

  /** The name Hudi 0.x gives version {@code version} of the archive log. */
  public static String of(int version) {
    if (version < 0) {
      throw new IllegalArgumentException("invalid archive file version " + version);
    }
    return ".commits_.archive." + version + "_1-0-1";
  }

  /** The version of an archive file name, or empty when the name is not one. */
  public static OptionalInt version(String fileName) {
    Matcher m = NAME.matcher(fileName);
    if (!m.matches()) {
      return OptionalInt.empty();
    }
    try {
      return OptionalInt.of(Integer.parseInt(m.group(1)));
    } catch (NumberFormatException e) {
      // More digits than an int holds: Hudi itself could not have written it.
      return OptionalInt.empty();
    }
  }
}
