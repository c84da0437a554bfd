package io.timelinearchive.storage.s3;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * Counts the HTTP requests one client sends, by S3 operation name. The hook runs once per attempt,
 * so SDK retries are counted: this is what the service bills and what the request floor is about.
 */
final class S3RequestCounter implements ExecutionInterceptor {
  private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

  @Override
  public void beforeTransmission(
      Context.BeforeTransmission context, ExecutionAttributes executionAttributes) {
    String operation = executionAttributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
    counts
        .computeIfAbsent(operation == null ? "unknown" : operation, k -> new LongAdder())
        .increment();
  }

  /** A snapshot, sorted by operation name. */
  Map<String, Long> snapshot() {
    Map<String, Long> copy = new TreeMap<>();
    counts.forEach((operation, count) -> copy.put(operation, count.sum()));
    return Collections.unmodifiableMap(copy);
  }
}
