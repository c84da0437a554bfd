package io.timelinearchive.storage;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/**
 * A storage that counts the requests it sends to its service, for each run's result and for
 * benchmarks comparing a run with the fewest requests it could make. Optional: a backend whose
 * client offers no hook to count with does not implement it.
 */
public interface ServiceRequestCounting {
  /**
   * Requests sent to the service so far, by operation name (for example {@code GetObject}), retries
   * included; a snapshot. Take one before and one after a run to count the run alone.
   */
  Map<String, Long> serviceRequests();

  /** The service requests {@code storage} counts, or none if it does not count them. */
  static Map<String, Long> countsOf(MetaStorage storage) {
    requireNonNull(storage, "storage is null");
    return storage instanceof ServiceRequestCounting counting
        ? counting.serviceRequests()
        : Map.of();
  }
}
