package io.timelinearchive.storage.azure;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelineNextSyncPolicy;
import com.azure.core.http.HttpPipelinePosition;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.core.util.Context;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.publisher.Mono;

/**
 * Counts the attempts the SDK's retry policy makes for one call, so that a conditional write
 * refused on a later attempt can be told apart from one refused on the first: only the latter
 * proves the target existed before this call.
 */
final class AttemptCounter implements HttpPipelinePolicy {
  private static final String KEY = AttemptCounter.class.getName();

  /** A context for one call whose attempts land in {@code attempts}. */
  static Context context(AtomicInteger attempts) {
    return new Context(KEY, attempts);
  }

  @Override
  public HttpPipelinePosition getPipelinePosition() {
    return HttpPipelinePosition.PER_RETRY;
  }

  @Override
  public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
    count(context);
    return next.process();
  }

  @Override
  public HttpResponse processSync(
      HttpPipelineCallContext context, HttpPipelineNextSyncPolicy next) {
    count(context);
    return next.processSync();
  }

  private static void count(HttpPipelineCallContext context) {
    context.getData(KEY).ifPresent(counter -> ((AtomicInteger) counter).incrementAndGet());
  }
}
