package io.timelinearchive.storage.azure;

import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelineNextSyncPolicy;
import com.azure.core.http.HttpPipelinePosition;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.core.util.Context;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import reactor.core.publisher.Mono;

/**
 * Counts the HTTP requests one client sends to the Blob service, by operation, once per attempt
 * (retries are requests too: the service bills them). The parts of a blob batch pass through the
 * pipeline to be serialised into the batch body, not sent: they are not counted, the batch is.
 *
 * <p>It also counts the attempts of one call made with {@link #context}, so that a conditional
 * write refused on a later attempt can be told apart from one refused on the first: only the latter
 * proves the target existed before this call.
 */
final class AzureRequestCounter implements HttpPipelinePolicy {
  /** The context key the batch client sets on the parts of a batch. */
  private static final String BATCH_PART = "Batch-Operation-Info";

  private static final String ATTEMPTS = AzureRequestCounter.class.getName() + ".attempts";

  private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

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

  /** A context for one call whose attempts land in {@code attempts}. */
  static Context context(AtomicInteger attempts) {
    return new Context(ATTEMPTS, attempts);
  }

  /** A snapshot, sorted by operation name. */
  Map<String, Long> snapshot() {
    Map<String, Long> copy = new TreeMap<>();
    counts.forEach((operation, count) -> copy.put(operation, count.sum()));
    return Collections.unmodifiableMap(copy);
  }

  private void count(HttpPipelineCallContext context) {
    context.getData(ATTEMPTS).ifPresent(counter -> ((AtomicInteger) counter).incrementAndGet());
    if (context.getData(BATCH_PART).isPresent()) {
      return;
    }
    counts.computeIfAbsent(operation(context.getHttpRequest()), k -> new LongAdder()).increment();
  }

  /** The Blob service's name for a request, from its method and {@code comp} parameter. */
  static String operation(HttpRequest request) {
    String comp = queryParameter(request.getUrl().getQuery(), "comp");
    HttpMethod method = request.getHttpMethod();
    if (comp != null) {
      return switch (comp) {
        case "list" -> "ListBlobs";
        case "batch" -> "BlobBatch";
        case "appendblock" -> "AppendBlock";
        case "block" -> "PutBlock";
        case "blocklist" -> method == HttpMethod.GET ? "GetBlockList" : "PutBlockList";
        case "lease" -> "LeaseBlob";
        case "metadata" -> method == HttpMethod.GET ? "GetBlobMetadata" : "SetBlobMetadata";
        case "properties" -> method == HttpMethod.GET ? "GetProperties" : "SetProperties";
        default -> method + " comp=" + comp;
      };
    }
    if ("container".equals(queryParameter(request.getUrl().getQuery(), "restype"))) {
      return switch (method) {
        case PUT -> "CreateContainer";
        case DELETE -> "DeleteContainer";
        default -> "GetContainerProperties";
      };
    }
    return switch (method) {
      case GET -> "GetBlob";
      case HEAD -> "GetBlobProperties";
      case PUT -> "PutBlob";
      case DELETE -> "DeleteBlob";
      default -> method.toString();
    };
  }

  private static String queryParameter(String query, String name) {
    if (query == null) {
      return null;
    }
    for (String pair : query.split("&")) {
      int eq = pair.indexOf('=');
      String key = eq < 0 ? pair : pair.substring(0, eq);
      if (key.equals(name)) {
        return eq < 0 ? "" : pair.substring(eq + 1);
      }
    }
    return null;
  }
}
