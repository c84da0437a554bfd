package io.timelinearchive.storage.gcs;

import static java.util.Objects.requireNonNull;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import java.util.zip.GZIPInputStream;

/**
 * An HTTP proxy on 127.0.0.1 in front of the emulator that fails chosen requests the way a network
 * does: the connection drops before the request reaches the server, or after the server applied it
 * but before the answer comes back, or the server answers with an error. It records every request,
 * so tests can count what a call cost.
 */
final class FaultProxy implements AutoCloseable {
  enum Fault {
    /** The connection closes before the request is forwarded: the server never sees it. */
    DROP_BEFORE_FORWARD,
    /** The request is applied by the server, then the connection closes without an answer. */
    DROP_AFTER_FORWARD,
    /** 503 without forwarding. */
    UNAVAILABLE,
    /** 429 without forwarding. */
    TOO_MANY_REQUESTS
  }

  /**
   * @param authorization the Authorization header, or empty
   * @param bodyHead the first bytes of the body as ISO-8859-1 text (a multipart upload names its
   *     object there)
   */
  record Request(String method, String target, String authorization, String bodyHead) {
    boolean isUpload() {
      return target.startsWith("/upload/");
    }

    boolean isBatch() {
      return target.startsWith("/batch/");
    }

    boolean isList() {
      return method.equals("GET") && target.matches("/storage/v1/b/[^/]+/o(\\?.*)?");
    }
  }

  private record Rule(Predicate<Request> when, Fault fault, AtomicInteger remaining) {}

  private record Hook(Predicate<Request> when, Action action, AtomicInteger remaining) {}

  private static final int BODY_HEAD = 2048;
  private static final Set<String> HOP_BY_HOP =
      Set.of(
          "connection",
          "content-length",
          "expect",
          "host",
          "upgrade",
          "transfer-encoding",
          "keep-alive",
          "date");

  private final String upstream;
  private final HttpServer server;
  private final ExecutorService executor;
  private final HttpClient client;
  private final List<Rule> rules = new CopyOnWriteArrayList<>();
  private final List<Hook> hooks = new CopyOnWriteArrayList<>();
  private final List<Request> requests = new CopyOnWriteArrayList<>();
  private volatile UnaryOperator<String> batchBodyRewrite = UnaryOperator.identity();

  static {
    // Headers and body go out in separate writes; with Nagle's algorithm on, each answer waits
    // for the client's delayed ACK (tens of milliseconds a request).
    System.setProperty("sun.net.httpserver.nodelay", "true");
  }

  private FaultProxy(String upstream) throws IOException {
    this.upstream = requireNonNull(upstream, "upstream is null");
    this.executor = Executors.newCachedThreadPool();
    this.client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    this.server =
        HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  static FaultProxy in(FakeGcsServer upstream) throws IOException {
    return new FaultProxy(upstream.endpoint());
  }

  String endpoint() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** The server's settings with the endpoint replaced by this proxy. */
  Map<String, String> config(FakeGcsServer upstream, Map<String, String> overrides) {
    Map<String, String> config = new java.util.HashMap<>(upstream.config());
    config.put(GcsConfig.ENDPOINT, endpoint());
    config.putAll(overrides);
    return Map.copyOf(config);
  }

  /** Applies {@code fault} to the next {@code times} requests matching {@code when}. */
  void inject(Predicate<Request> when, Fault fault, int times) {
    rules.add(new Rule(when, fault, new AtomicInteger(times)));
  }

  /** An action that may throw, run by {@link #beforeForwarding}. */
  @FunctionalInterface
  interface Action {
    void run() throws Exception;
  }

  /** Runs {@code action} once, before forwarding the next request matching {@code when}. */
  void beforeForwarding(Predicate<Request> when, Action action) {
    hooks.add(new Hook(when, action, new AtomicInteger(1)));
  }

  /** Rewrites the body of every batch request before it is forwarded. */
  void rewriteBatchBodies(UnaryOperator<String> rewrite) {
    batchBodyRewrite = requireNonNull(rewrite, "rewrite is null");
  }

  List<Request> requests() {
    return List.copyOf(requests);
  }

  long count(Predicate<Request> which) {
    return requests.stream().filter(which).count();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] body = exchange.getRequestBody().readAllBytes();
      Request request =
          new Request(
              exchange.getRequestMethod(),
              exchange.getRequestURI().toString(),
              Optional.ofNullable(exchange.getRequestHeaders().getFirst("Authorization"))
                  .orElse(""),
              bodyHead(body, exchange.getRequestHeaders().getFirst("Content-Encoding")));
      requests.add(request);
      Fault fault = faultFor(request);
      if (fault == Fault.DROP_BEFORE_FORWARD) {
        return; // closing the exchange without an answer closes the connection
      }
      if (fault == Fault.UNAVAILABLE || fault == Fault.TOO_MANY_REQUESTS) {
        byte[] error =
            ("{\"error\":{\"code\":"
                    + (fault == Fault.UNAVAILABLE ? 503 : 429)
                    + ",\"message\":\"injected by FaultProxy\"}}")
                .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(fault == Fault.UNAVAILABLE ? 503 : 429, error.length);
        exchange.getResponseBody().write(error);
        return;
      }
      if (request.isBatch()) {
        body =
            batchBodyRewrite
                .apply(new String(body, StandardCharsets.ISO_8859_1))
                .getBytes(StandardCharsets.ISO_8859_1);
      }
      for (Hook hook : hooks) {
        if (hook.when().test(request)
            && hook.remaining().getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0) {
          try {
            hook.action().run();
          } catch (Exception e) {
            throw new IOException("hook failed for " + request, e);
          }
        }
      }
      HttpResponse<byte[]> response = forward(exchange, request, body);
      if (fault == Fault.DROP_AFTER_FORWARD) {
        return;
      }
      response
          .headers()
          .map()
          .forEach(
              (name, values) -> {
                if (!HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT))) {
                  List<String> rewritten = new ArrayList<>();
                  for (String value : values) {
                    // Resumable upload sessions must come back through the proxy too.
                    rewritten.add(value.replace(upstream, endpoint()));
                  }
                  exchange.getResponseHeaders().put(name, rewritten);
                }
              });
      byte[] answer = response.body();
      exchange.sendResponseHeaders(response.statusCode(), answer.length == 0 ? -1 : answer.length);
      if (answer.length > 0) {
        exchange.getResponseBody().write(answer);
      }
    }
  }

  /** The start of a body, unzipped if need be (the client gzips upload bodies). */
  private static String bodyHead(byte[] body, String contentEncoding) throws IOException {
    byte[] head;
    if ("gzip".equalsIgnoreCase(contentEncoding)) {
      try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
        head = in.readNBytes(BODY_HEAD);
      }
    } else {
      head = Arrays.copyOf(body, Math.min(body.length, BODY_HEAD));
    }
    return new String(head, StandardCharsets.ISO_8859_1);
  }

  private Fault faultFor(Request request) {
    for (Rule rule : rules) {
      if (rule.when().test(request) && rule.remaining().getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0) {
        return rule.fault();
      }
    }
    return null;
  }

  private HttpResponse<byte[]> forward(HttpExchange exchange, Request request, byte[] body)
      throws IOException {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(URI.create(upstream + request.target()))
            .timeout(Duration.ofSeconds(60))
            .method(
                request.method(),
                body.length == 0
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(body));
    exchange
        .getRequestHeaders()
        .forEach(
            (name, values) -> {
              if (!HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT))) {
                for (String value : values) {
                  builder.header(name, value);
                }
              }
            });
    try {
      return client.send(builder.build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while forwarding", e);
    }
  }
}
