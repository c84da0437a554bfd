package io.timelinearchive.storage.azure;

import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelineNextSyncPolicy;
import com.azure.core.http.HttpPipelinePosition;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import reactor.core.publisher.Mono;

/**
 * Records every attempt a storage sends (after the SDK's retry policy, so each retry counts) with
 * the status it got; observes real traffic, changes nothing.
 */
final class RequestLog implements HttpPipelinePolicy {
  record Attempt(HttpMethod method, String url, int status) {
    boolean isBatch() {
      return url.contains("comp=batch");
    }

    boolean isAppendBlock() {
      return url.contains("comp=appendblock");
    }
  }

  private static final HttpHeaderName REQUEST_ID = HttpHeaderName.fromString("x-ms-request-id");

  private final List<Attempt> attempts = new CopyOnWriteArrayList<>();

  List<Attempt> attempts() {
    return List.copyOf(attempts);
  }

  List<Attempt> attempts(Predicate<Attempt> filter) {
    return attempts.stream().filter(filter).toList();
  }

  void clear() {
    attempts.clear();
  }

  @Override
  public HttpPipelinePosition getPipelinePosition() {
    return HttpPipelinePosition.PER_RETRY;
  }

  @Override
  public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
    return next.process().doOnNext(response -> record(context, response));
  }

  @Override
  public HttpResponse processSync(
      HttpPipelineCallContext context, HttpPipelineNextSyncPolicy next) {
    HttpResponse response = next.processSync();
    record(context, response);
    return response;
  }

  private void record(HttpPipelineCallContext context, HttpResponse response) {
    // Blob batch sub-requests pass through a copy of the pipeline but never reach the network;
    // their fake "responses" carry no request id.
    if (response.getHeaders().getValue(REQUEST_ID) == null) {
      return;
    }
    attempts.add(
        new Attempt(
            context.getHttpRequest().getHttpMethod(),
            context.getHttpRequest().getUrl().toString(),
            response.getStatusCode()));
  }
}
