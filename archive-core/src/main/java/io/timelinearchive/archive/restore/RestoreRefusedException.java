package io.timelinearchive.archive.restore;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.List;

/**
 * An unarchive that would not be lossless or safe; nothing was written. Each reason names an
 * instant and what is wrong with it.
 */
public final class RestoreRefusedException extends IOException {
  private final List<String> reasons;

  public RestoreRefusedException(String summary, List<String> reasons) {
    super(summary + ": " + String.join("; ", limit(reasons)));
    this.reasons = List.copyOf(requireNonNull(reasons, "reasons is null"));
  }

  public List<String> reasons() {
    return reasons;
  }

  private static List<String> limit(List<String> reasons) {
    if (reasons.size() <= 5) {
      return reasons;
    }
    List<String> shown = new java.util.ArrayList<>(reasons.subList(0, 5));
    shown.add("and " + (reasons.size() - 5) + " more");
    return shown;
  }
}
