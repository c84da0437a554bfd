package io.timelinearchive.storage.azure;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelineNextSyncPolicy;
import com.azure.core.http.HttpPipelinePosition;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import reactor.core.publisher.Mono;

/**
 * A network fault between the client and a real server: the request reaches the server and takes
 * effect, but its response is lost, as after a connection reset or a client timeout. The SDK's
 * retry policy then sends the request again, which is the case conditional writes must survive.
 */
final class LostResponses implements HttpPipelinePolicy {
  private final AtomicInteger toLose = new AtomicInteger();
  private volatile Predicate<HttpRequest> matching = request -> false;

  /** Loses the responses of the next {@code count} requests that match. */
  void loseNext(int count, Predicate<HttpRequest> requests) {
    matching = requests;
    toLose.set(count);
  }

  int pending() {
    return toLose.get();
  }

  @Override
  public HttpPipelinePosition getPipelinePosition() {
    return HttpPipelinePosition.PER_RETRY;
  }

  @Override
  public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
    if (!take(context.getHttpRequest())) {
      return next.process();
    }
    return next.process()
        .flatMap(
            response -> {
              response.close();
              return Mono.error(lost(context.getHttpRequest()));
            });
  }

  @Override
  public HttpResponse processSync(
      HttpPipelineCallContext context, HttpPipelineNextSyncPolicy next) {
    if (!take(context.getHttpRequest())) {
      return next.processSync();
    }
    next.processSync().close();
    throw new UncheckedIOException(lost(context.getHttpRequest()));
  }

  private boolean take(HttpRequest request) {
    return matching.test(request) && toLose.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
  }

  private static IOException lost(HttpRequest request) {
    return new IOException(
        "injected fault: response to " + request.getHttpMethod() + " lost after it took effect");
  }
}
