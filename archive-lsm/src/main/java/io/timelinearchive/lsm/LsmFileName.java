package io.timelinearchive.lsm;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The name of a history file: {@code <min>_<max>_<layer>.parquet}, the requested times of the first
 * and last instant it holds and its LSM layer (0 for a file an archival run wrote, one more for
 * each compaction it came through). Hudi 1.0 reads the layer as one digit.
 *
 * @param minTime the requested time of the file's first instant
 * @param maxTime the requested time of the file's last instant
 * @param layer the LSM layer, 0 to 9
 */
public record LsmFileName(String minTime, String maxTime, int layer) {
  private static final Pattern NAME = Pattern.compile("^(\\d+)_(\\d+)_(\\d)\\.parquet$");

  public LsmFileName {
    requireNonNull(minTime, "minTime is null");
    requireNonNull(maxTime, "maxTime is null");
    if (layer < 0 || layer > 9) {
      throw new IllegalArgumentException("layer " + layer + " is not 0 to 9");
    }
  }

  /** The history file a name stands for, if it is one. */
  public static Optional<LsmFileName> parse(String fileName) {
    Matcher m = NAME.matcher(fileName);
    if (!m.matches()) {
      return Optional.empty();
    }
    return Optional.of(new LsmFileName(m.group(1), m.group(2), Integer.parseInt(m.group(3))));
  }

  /** Whether the file's time range meets [{@code from}, {@code to}] (absent: unbounded). */
  public boolean overlaps(Optional<String> from, Optional<String> to) {
    return from.map(f -> maxTime.compareTo(f) >= 0).orElse(true)
        && to.map(t -> minTime.compareTo(t) <= 0).orElse(true);
  }

  public String fileName() {
    return minTime + "_" + maxTime + "_" + layer + ".parquet";
  }

  @Override
  public String toString() {
    return fileName();
  }
}
