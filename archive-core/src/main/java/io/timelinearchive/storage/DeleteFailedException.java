package io.timelinearchive.storage;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/** Some files of a {@link MetaStorage#deleteAll} call could not be deleted; each with its cause. */
public final class DeleteFailedException extends IOException {
  private static final long serialVersionUID = 1L;
  private static final int NAMED_IN_MESSAGE = 5;

  private final transient Map<StorageLocation, String> failures;

  public DeleteFailedException(Map<StorageLocation, String> failures) {
    super(message(requireNonNull(failures, "failures is null")));
    this.failures = Collections.unmodifiableMap(new LinkedHashMap<>(failures));
  }

  /** The files not deleted, each with the store's reason. */
  public Map<StorageLocation, String> failures() {
    return failures;
  }

  private static String message(Map<StorageLocation, String> failures) {
    String named =
        failures.entrySet().stream()
            .limit(NAMED_IN_MESSAGE)
            .map(e -> e.getKey() + " (" + e.getValue() + ")")
            .collect(Collectors.joining(", "));
    int more = failures.size() - NAMED_IN_MESSAGE;
    return "failed to delete "
        + failures.size()
        + " file(s): "
        + named
        + (more > 0 ? " and " + more + " more" : "");
  }
}
