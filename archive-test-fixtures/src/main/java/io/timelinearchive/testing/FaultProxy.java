package io.timelinearchive.testing;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import java.util.zip.GZIPInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An HTTP/1.1 proxy on 127.0.0.1 between a client under test and a real server (S3Proxy, Azurite,
 * fake-gcs-server), failing the requests its rules pick the way a network or a service does: answer
 * an error without forwarding, drop the connection before forwarding (the server never sees the
 * request), or forward and then drop the connection instead of answering (the server did the work,
 * the client never hears of it). It records every request, so a test can count what a call cost.
 *
 * <p>Requests are forwarded byte for byte, so signatures stay valid (S3's cover the body, Azure's
 * Shared Key ones do not cover the host and port); only {@code Expect: 100-continue} is answered
 * here (the signers leave that header out), and a body a test asked to rewrite goes out with its
 * new length. Each forwarded request gets an upstream connection of its own. Where an answer's
 * headers name the server (a resumable upload's session URL), they name this proxy instead, so
 * later requests come back through it.
 */
public final class FaultProxy implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(FaultProxy.class);

  /** What happens to one request. */
  public record Fault(Kind kind, int status, String contentType, String body) {
    public enum Kind {
      FORWARD,
      RESPOND,
      DROP_BEFORE,
      DROP_AFTER
    }

    public static final Fault FORWARD = new Fault(Kind.FORWARD, 0, "", "");

    /** The connection closes before the request is forwarded: the server never sees it. */
    public static final Fault DROP_BEFORE = new Fault(Kind.DROP_BEFORE, 0, "", "");

    /** The server applies the request, then the connection closes without an answer. */
    public static final Fault DROP_AFTER = new Fault(Kind.DROP_AFTER, 0, "", "");

    public Fault {
      requireNonNull(kind, "kind is null");
      requireNonNull(contentType, "contentType is null");
      requireNonNull(body, "body is null");
    }

    /** An error answer without forwarding, in the XML shape of S3 and Azure. */
    public static Fault respond(int status, String code) {
      return new Fault(
          Kind.RESPOND,
          status,
          "application/xml",
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>"
              + code
              + "</Code><Message>injected by FaultProxy</Message></Error>");
    }

    /** An error answer without forwarding, in the JSON shape of Google's APIs. */
    public static Fault respondJson(int status) {
      return new Fault(
          Kind.RESPOND,
          status,
          "application/json",
          "{\"error\":{\"code\":" + status + ",\"message\":\"injected by FaultProxy\"}}");
    }
  }

  /**
   * One request as the proxy received it.
   *
   * @param target the request target as written (path and query, escapes kept)
   * @param head the request line and headers, up to and including the blank line
   * @param body the body as received, chunk framing included
   */
  public record Request(String method, String target, String head, byte[] body) {
    private static final int BODY_HEAD = 2048;

    public String path() {
      int q = target.indexOf('?');
      return q < 0 ? target : target.substring(0, q);
    }

    public String query() {
      int q = target.indexOf('?');
      return q < 0 ? "" : target.substring(q + 1);
    }

    /** The first value of a header, or null. */
    public String header(String name) {
      return FaultProxy.header(head, name);
    }

    /** The Authorization header, or empty. */
    public String authorization() {
      String value = header("authorization");
      return value == null ? "" : value;
    }

    /** The body's content: without chunk framing, unzipped if the client gzipped it. */
    public byte[] content() {
      byte[] content = isChunked(head) ? unchunked(body) : body;
      if ("gzip".equalsIgnoreCase(header("content-encoding"))) {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(content))) {
          return in.readAllBytes();
        } catch (IOException e) {
          throw new UncheckedIOException("a gzip body the proxy cannot read", e);
        }
      }
      return content;
    }

    /**
     * The first 2 KiB of {@link #content} as ISO-8859-1 text (a GCS multipart upload names its
     * object there).
     */
    public String bodyHead() {
      byte[] content = content();
      return new String(content, 0, Math.min(content.length, BODY_HEAD), ISO_8859_1);
    }

    public String bodyText() {
      return new String(body, UTF_8);
    }

    /** S3: a PUT of a whole object, not of a multipart upload's part. */
    public boolean isPutObject() {
      return method.equals("PUT") && !query().contains("uploadId=");
    }

    /** S3: a GetObject (not a listing). */
    public boolean isGetObject() {
      return method.equals("GET") && !query().contains("list-type=");
    }

    /** S3: the request that completes a multipart upload. */
    public boolean isCompleteMultipartUpload() {
      return method.equals("POST") && query().contains("uploadId=");
    }

    /** S3: a DeleteObjects batch. */
    public boolean isDeleteObjects() {
      return method.equals("POST") && query().startsWith("delete");
    }

    /** GCS JSON API: an upload, in one request or a resumable session. */
    public boolean isUpload() {
      return target.startsWith("/upload/");
    }

    /** GCS JSON API: a batch of requests. */
    public boolean isBatch() {
      return target.startsWith("/batch/");
    }

    /** GCS JSON API: a listing of a bucket's objects. */
    public boolean isList() {
      return method.equals("GET") && target.matches("/storage/v1/b/[^/]+/o(\\?.*)?");
    }
  }

  /**
   * Decides the fault of each request; called at most once per request, in arrival order, from the
   * proxy's threads.
   */
  @FunctionalInterface
  public interface Rule {
    Fault decide(Request request);

    /** Faults the first {@code times} requests that match. */
    static Rule first(int times, Predicate<Request> match, Fault fault) {
      AtomicInteger left = new AtomicInteger(times);
      return request ->
          match.test(request) && left.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0
              ? fault
              : Fault.FORWARD;
    }

    /** Faults every request that matches. */
    static Rule every(Predicate<Request> match, Fault fault) {
      return request -> match.test(request) ? fault : Fault.FORWARD;
    }
  }

  /** An action that may throw, run by {@link #beforeForwarding}. */
  @FunctionalInterface
  public interface Action {
    void run() throws Exception;
  }

  private record Hook(Predicate<Request> when, Action action, AtomicInteger remaining) {}

  private record Rewrite(Predicate<Request> which, UnaryOperator<String> rewrite) {}

  /** Starts a log line when the proxy itself failed on a message. */
  public static final String PROXY_FAILED = "PROXY FAILED: ";

  private final URI upstream;
  private final String upstreamOrigin;
  private final ServerSocket server;
  private final ExecutorService connections = Executors.newCachedThreadPool(FaultProxy::daemon);
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final List<String> log = Collections.synchronizedList(new ArrayList<>());
  private final List<Request> requests = Collections.synchronizedList(new ArrayList<>());
  private final List<Rule> rules = new CopyOnWriteArrayList<>();
  private final List<Hook> hooks = new CopyOnWriteArrayList<>();
  private volatile Rewrite rewrite;

  /**
   * @param upstream the server's endpoint; its scheme is {@code http}, its path (an Azurite
   *     account's, say) is the client's business
   */
  public FaultProxy(URI upstream) throws IOException {
    this.upstream = requireNonNull(upstream, "upstream is null");
    if (!"http".equals(upstream.getScheme()) || upstream.getPort() < 0) {
      throw new IllegalArgumentException("not an http endpoint with a port: " + upstream);
    }
    this.upstreamOrigin = "http://" + upstream.getRawAuthority();
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    connections.execute(this::accept);
  }

  /** The server this proxy forwards to. */
  public URI upstream() {
    return upstream;
  }

  /** Where clients send their requests: {@code http://127.0.0.1:PORT}. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getLocalPort());
  }

  /** Replaces every rule with {@code rule}; {@code r -> Fault.FORWARD} ends all faults. */
  public void rule(Rule rule) {
    requireNonNull(rule, "rule is null");
    rules.clear();
    rules.add(rule);
  }

  /**
   * Adds a rule applying {@code fault} to the next {@code times} requests matching {@code when}.
   * Rules are asked in the order they were added; the first fault other than forwarding wins, and
   * the rules after it are not asked about that request.
   */
  public void inject(Predicate<Request> when, Fault fault, int times) {
    rules.add(Rule.first(times, when, fault));
  }

  /** Runs {@code action} once, before forwarding the next request matching {@code when}. */
  public void beforeForwarding(Predicate<Request> when, Action action) {
    hooks.add(new Hook(when, action, new AtomicInteger(1)));
  }

  /**
   * Rewrites the content of the forwarded requests matching {@code which}, as ISO-8859-1 text (for
   * example to make a server refuse some entries of a batch); replaces any earlier rewrite.
   */
  public void rewriteBodies(Predicate<Request> which, UnaryOperator<String> rewrite) {
    this.rewrite = new Rewrite(requireNonNull(which, "which is null"), rewrite);
  }

  /** Every request received so far, faulted ones included, in arrival order. */
  public List<Request> requests() {
    synchronized (requests) {
      return List.copyOf(requests);
    }
  }

  /** The requests received so far that match {@code which}. */
  public long count(Predicate<Request> which) {
    return requests().stream().filter(which).count();
  }

  /** "METHOD target -> KIND status", one line per request. */
  public List<String> log() {
    synchronized (log) {
      return List.copyOf(log);
    }
  }

  @Override
  public void close() {
    try {
      server.close();
    } catch (IOException e) {
      // closing anyway
    }
    for (Socket socket : open) {
      try {
        socket.close();
      } catch (IOException e) {
        // closing anyway
      }
    }
    connections.shutdownNow();
  }

  private static Thread daemon(Runnable task) {
    Thread thread = new Thread(task, "fault-proxy");
    thread.setDaemon(true);
    return thread;
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        // small head and body writes must not wait for delayed ACKs (Nagle)
        client.setTcpNoDelay(true);
        open.add(client);
        connections.execute(() -> serve(client));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private Fault decide(Request request) {
    for (Rule rule : rules) {
      Fault fault = requireNonNull(rule.decide(request), "a rule answered null");
      if (fault.kind() != Fault.Kind.FORWARD) {
        return fault;
      }
    }
    return Fault.FORWARD;
  }

  private void serve(Socket client) {
    Socket server = null;
    try (client) {
      InputStream fromClient = new BufferedInputStream(client.getInputStream());
      OutputStream toClient = new BufferedOutputStream(client.getOutputStream());
      while (true) {
        String head = readHead(fromClient);
        if (head == null) {
          return;
        }
        String[] requestLine = head.substring(0, head.indexOf("\r\n")).split(" ");
        String method = requestLine[0];
        String target = requestLine[1];
        if ("100-continue".equalsIgnoreCase(header(head, "expect"))) {
          toClient.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(ISO_8859_1));
          toClient.flush();
          head = withoutHeader(head, "expect");
        }
        byte[] body = readBody(fromClient, head, false);
        Request request = new Request(method, target, head, body);
        requests.add(request);
        Fault fault = decide(request);
        log.add(method + " " + target + " -> " + fault.kind() + " " + fault.status());
        switch (fault.kind()) {
          case DROP_BEFORE -> {
            return;
          }
          case RESPOND -> {
            respond(toClient, fault);
            return;
          }
          default -> {
            Request forwarded = rewritten(request);
            runHooks(forwarded);
            // A connection of its own per request: a server may close an idle keep-alive
            // connection (a Node.js server after 5 s), and a request written to one it closed
            // would come back to the client as a dropped connection that no rule chose.
            if (server != null) {
              open.remove(server);
              server.close();
            }
            server = new Socket(upstream.getHost(), upstream.getPort());
            server.setTcpNoDelay(true);
            open.add(server);
            InputStream fromServer = new BufferedInputStream(server.getInputStream());
            OutputStream toServer = new BufferedOutputStream(server.getOutputStream());
            toServer.write(forwarded.head().getBytes(ISO_8859_1));
            toServer.write(forwarded.body());
            toServer.flush();
            String responseHead = readHead(fromServer);
            if (responseHead == null) {
              return;
            }
            byte[] responseBody = readBody(fromServer, responseHead, method.equals("HEAD"));
            if (fault.kind() == Fault.Kind.DROP_AFTER) {
              return; // the server acted; the client never hears the answer
            }
            toClient.write(
                responseHead.replace(upstreamOrigin, originOf(endpoint())).getBytes(ISO_8859_1));
            toClient.write(responseBody);
            toClient.flush();
            if ("close".equalsIgnoreCase(header(responseHead, "connection"))) {
              return;
            }
          }
        }
      }
    } catch (IOException e) {
      // a dropped or closed connection ends this exchange
    } catch (RuntimeException e) {
      // a message this proxy cannot parse, or a hook that failed: say so, so that no test takes
      // it for a store fault
      log.add(PROXY_FAILED + e);
      LOG.warn("fault proxy in front of {} failed on a message", upstream, e);
    } finally {
      open.remove(client);
      if (server != null) {
        open.remove(server);
        try {
          server.close();
        } catch (IOException e) {
          // closing anyway
        }
      }
    }
  }

  private static String originOf(URI uri) {
    return "http://" + uri.getRawAuthority();
  }

  private static void respond(OutputStream toClient, Fault fault) throws IOException {
    byte[] body = fault.body().getBytes(UTF_8);
    String response =
        "HTTP/1.1 "
            + fault.status()
            + " Injected\r\nContent-Type: "
            + fault.contentType()
            + "\r\nContent-Length: "
            + body.length
            + "\r\nConnection: close\r\n\r\n";
    toClient.write(response.getBytes(ISO_8859_1));
    toClient.write(body);
    toClient.flush();
  }

  /** The request to forward: as received, or with its content rewritten and its length anew. */
  private Request rewritten(Request request) {
    Rewrite current = rewrite;
    if (current == null || !current.which().test(request)) {
      return request;
    }
    byte[] raw = isChunked(request.head()) ? unchunked(request.body()) : request.body();
    byte[] content = current.rewrite().apply(new String(raw, ISO_8859_1)).getBytes(ISO_8859_1);
    String head =
        withoutHeader(withoutHeader(request.head(), "transfer-encoding"), "content-length");
    head = head.substring(0, head.length() - 2) + "Content-Length: " + content.length + "\r\n\r\n";
    return new Request(request.method(), request.target(), head, content);
  }

  private void runHooks(Request request) {
    for (Hook hook : hooks) {
      if (hook.when().test(request) && hook.remaining().getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0) {
        try {
          hook.action().run();
        } catch (Exception e) {
          throw new IllegalStateException(
              "hook failed for " + request.method() + " " + request.target(), e);
        }
      }
    }
  }

  /** The head up to and including the blank line, or null at a clean end of stream. */
  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        if (head.size() == 0) {
          return null;
        }
        throw new EOFException("end of stream inside a head");
      }
      head.write(b);
      matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    return head.toString(ISO_8859_1);
  }

  private static String header(String head, String name) {
    for (String line : head.split("\r\n")) {
      int colon = line.indexOf(':');
      if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
        return line.substring(colon + 1).trim();
      }
    }
    return null;
  }

  private static boolean isChunked(String head) {
    String encoding = header(head, "transfer-encoding");
    return encoding != null && encoding.toLowerCase(Locale.ROOT).contains("chunked");
  }

  private static String withoutHeader(String head, String name) {
    StringBuilder kept = new StringBuilder();
    for (String line : head.split("\r\n", -1)) {
      int colon = line.indexOf(':');
      if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
        continue;
      }
      kept.append(line).append("\r\n");
    }
    // split kept the two empty strings after the final CRLFCRLF: drop the extra CRLF
    return kept.substring(0, kept.length() - 2);
  }

  /** The raw body bytes (chunk framing included) as announced by the head. */
  private static byte[] readBody(InputStream in, String head, boolean noBody) throws IOException {
    String firstLine = head.substring(0, head.indexOf("\r\n"));
    if (noBody || firstLine.matches("HTTP/\\S+ (1\\d\\d|204|304) .*")) {
      return new byte[0];
    }
    String length = header(head, "content-length");
    if (isChunked(head)) {
      ByteArrayOutputStream raw = new ByteArrayOutputStream();
      while (true) {
        String sizeLine = readLine(in, raw);
        int size = Integer.parseInt(sizeLine.split(";")[0].trim(), 16);
        if (size == 0) {
          while (!readLine(in, raw).isEmpty()) {
            // trailers
          }
          return raw.toByteArray();
        }
        raw.write(in.readNBytes(size + 2));
      }
    }
    if (length != null) {
      int n = Integer.parseInt(length);
      byte[] body = in.readNBytes(n);
      if (body.length != n) {
        throw new EOFException("body shorter than Content-Length");
      }
      return body;
    }
    if (firstLine.startsWith("HTTP/")) {
      return in.readAllBytes(); // a response delimited by the end of the connection
    }
    return new byte[0];
  }

  private static String readLine(InputStream in, ByteArrayOutputStream copy) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int previous = -1;
    while (true) {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("end of stream inside a chunked body");
      }
      copy.write(b);
      if (previous == '\r' && b == '\n') {
        byte[] bytes = line.toByteArray();
        return new String(bytes, 0, bytes.length - 1, ISO_8859_1);
      }
      line.write(b);
      previous = b;
    }
  }

  /** The data of a chunked body, without its framing (trailers dropped). */
  private static byte[] unchunked(byte[] raw) {
    ByteArrayOutputStream data = new ByteArrayOutputStream();
    int at = 0;
    while (at < raw.length) {
      int lineEnd = at;
      while (lineEnd + 1 < raw.length && !(raw[lineEnd] == '\r' && raw[lineEnd + 1] == '\n')) {
        lineEnd++;
      }
      String sizeLine = new String(Arrays.copyOfRange(raw, at, lineEnd), ISO_8859_1);
      int size = Integer.parseInt(sizeLine.split(";")[0].trim(), 16);
      if (size == 0) {
        break;
      }
      int start = lineEnd + 2;
      data.write(raw, start, Math.min(size, raw.length - start));
      at = start + size + 2;
    }
    return data.toByteArray();
  }
}
