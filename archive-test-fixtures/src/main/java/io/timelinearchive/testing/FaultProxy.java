package io.timelinearchive.testing;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
      return HttpMessages.header(head, name);
    }

    /** The Authorization header, or empty. */
    public String authorization() {
      String value = header("authorization");
      return value == null ? "" : value;
    }

    /** The body's content: without chunk framing, unzipped if the client gzipped it. */
    public byte[] content() {
      byte[] content = HttpMessages.isChunked(head) ? HttpMessages.unchunked(body) : body;
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

  /** Starts a log line when the proxy itself failed on a message. */
  public static final String PROXY_FAILED = "PROXY FAILED: ";

  private final URI upstream;
  private final String upstreamOrigin;
  private final ServerSocket server;
  private final ExecutorService connections = Executors.newCachedThreadPool(FaultProxy::daemon);
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final List<String> log = Collections.synchronizedList(new ArrayList<>());
  private final List<Request> requests = Collections.synchronizedList(new ArrayList<>());
  private final FaultPlan plan = new FaultPlan();

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
    plan.replaceRules(requireNonNull(rule, "rule is null"));
  }

  /**
   * Adds a rule applying {@code fault} to the next {@code times} requests matching {@code when}.
   * Rules are asked in the order they were added; the first fault other than forwarding wins, and
   * the rules after it are not asked about that request.
   */
  public void inject(Predicate<Request> when, Fault fault, int times) {
    plan.addRule(Rule.first(times, when, fault));
  }

  /** Runs {@code action} once, before forwarding the next request matching {@code when}. */
  public void beforeForwarding(Predicate<Request> when, Action action) {
    plan.addHook(when, action);
  }

  /**
   * Rewrites the content of the forwarded requests matching {@code which}, as ISO-8859-1 text (for
   * example to make a server refuse some entries of a batch); replaces any earlier rewrite.
   */
  public void rewriteBodies(Predicate<Request> which, UnaryOperator<String> rewrite) {
    plan.rewrite(
        requireNonNull(which, "which is null"), requireNonNull(rewrite, "rewrite is null"));
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

  private void serve(Socket client) {
    Socket server = null;
    try (client) {
      InputStream fromClient = new BufferedInputStream(client.getInputStream());
      OutputStream toClient = new BufferedOutputStream(client.getOutputStream());
      while (true) {
        String head = HttpMessages.readHead(fromClient);
        if (head == null) {
          return;
        }
        String[] requestLine = head.substring(0, head.indexOf("\r\n")).split(" ");
        String method = requestLine[0];
        String target = requestLine[1];
        if ("100-continue".equalsIgnoreCase(HttpMessages.header(head, "expect"))) {
          toClient.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(ISO_8859_1));
          toClient.flush();
          head = HttpMessages.withoutHeader(head, "expect");
        }
        byte[] body = HttpMessages.readBody(fromClient, head, false);
        Request request = new Request(method, target, head, body);
        requests.add(request);
        Fault fault = plan.decide(request);
        log.add(method + " " + target + " -> " + fault.kind() + " " + fault.status());
        switch (fault.kind()) {
          case DROP_BEFORE -> {
            return;
          }
          case RESPOND -> {
            HttpMessages.respond(toClient, fault);
            return;
          }
          default -> {
            Request forwarded = plan.rewritten(request);
            plan.runHooks(forwarded);
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
            String responseHead = HttpMessages.readHead(fromServer);
            if (responseHead == null) {
              return;
            }
            byte[] responseBody =
                HttpMessages.readBody(fromServer, responseHead, method.equals("HEAD"));
            if (fault.kind() == Fault.Kind.DROP_AFTER) {
              return; // the server acted; the client never hears the answer
            }
            toClient.write(
                responseHead.replace(upstreamOrigin, originOf(endpoint())).getBytes(ISO_8859_1));
            toClient.write(responseBody);
            toClient.flush();
            if ("close".equalsIgnoreCase(HttpMessages.header(responseHead, "connection"))) {
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
}
