package io.timelinearchive.storage.s3;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * An HTTP/1.1 proxy on 127.0.0.1 between the client under test and a real S3 API server, failing
 * the requests a {@link Rule} picks: answer an error without forwarding, drop the connection before
 * forwarding, or forward and then drop the connection instead of answering (the server did the
 * work, the client never hears of it). Requests are forwarded byte for byte, so signatures stay
 * valid; only {@code Expect: 100-continue} is answered here (the signer leaves that header out).
 */
public final class FaultProxy implements AutoCloseable {

  /** What happens to one request. */
  public record Fault(Kind kind, int status, String code) {
    public enum Kind {
      FORWARD,
      RESPOND,
      DROP_BEFORE,
      DROP_AFTER
    }

    public static final Fault FORWARD = new Fault(Kind.FORWARD, 0, "");
    public static final Fault DROP_BEFORE = new Fault(Kind.DROP_BEFORE, 0, "");
    public static final Fault DROP_AFTER = new Fault(Kind.DROP_AFTER, 0, "");

    public static Fault respond(int status, String code) {
      return new Fault(Kind.RESPOND, status, code);
    }
  }

  /** One request as the proxy saw it. */
  public record Request(String method, String target, String head, byte[] body) {
    public String path() {
      int q = target.indexOf('?');
      return q < 0 ? target : target.substring(0, q);
    }

    public String query() {
      int q = target.indexOf('?');
      return q < 0 ? "" : target.substring(q + 1);
    }

    public boolean isPutObject() {
      return method.equals("PUT") && !query().contains("uploadId=");
    }

    public boolean isGetObject() {
      return method.equals("GET") && !query().contains("list-type=");
    }

    public boolean isCompleteMultipartUpload() {
      return method.equals("POST") && query().contains("uploadId=");
    }

    public boolean isDeleteObjects() {
      return method.equals("POST") && query().startsWith("delete");
    }

    public String bodyText() {
      return new String(body, UTF_8);
    }
  }

  /** Decides the fault of each request; called once per request, in arrival order. */
  public interface Rule {
    Fault decide(Request request);

    /** Faults the first {@code times} requests that match. */
    static Rule first(int times, Predicate<Request> match, Fault fault) {
      AtomicInteger left = new AtomicInteger(times);
      return request -> match.test(request) && left.getAndDecrement() > 0 ? fault : Fault.FORWARD;
    }

    /** Faults every request that matches. */
    static Rule every(Predicate<Request> match, Fault fault) {
      return request -> match.test(request) ? fault : Fault.FORWARD;
    }
  }

  /** Starts a log line when the proxy itself failed on a message. */
  public static final String PROXY_FAILED = "PROXY FAILED: ";

  private final URI upstream;
  private final ServerSocket server;
  private final ExecutorService connections = Executors.newCachedThreadPool(FaultProxy::daemon);
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final List<String> log = Collections.synchronizedList(new ArrayList<>());
  private volatile Rule rule = r -> Fault.FORWARD;

  public FaultProxy(URI upstream) throws IOException {
    this.upstream = upstream;
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    connections.execute(this::accept);
  }

  /** The server this proxy forwards to. */
  public URI upstream() {
    return upstream;
  }

  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getLocalPort());
  }

  public void rule(Rule rule) {
    this.rule = rule;
  }

  /** "METHOD target -> what happened", one line per request. */
  public List<String> log() {
    synchronized (log) {
      return List.copyOf(log);
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (Socket socket : open) {
      socket.close();
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
      InputStream fromServer = null;
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
        Fault fault = rule.decide(request);
        log.add(method + " " + target + " -> " + fault.kind() + " " + fault.status());
        switch (fault.kind()) {
          case DROP_BEFORE -> {
            return;
          }
          case RESPOND -> {
            byte[] xml =
                ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>"
                        + fault.code()
                        + "</Code><Message>injected by FaultProxy</Message></Error>")
                    .getBytes(UTF_8);
            String response =
                "HTTP/1.1 "
                    + fault.status()
                    + " Injected\r\nContent-Type: application/xml\r\nContent-Length: "
                    + xml.length
                    + "\r\nConnection: close\r\n\r\n";
            toClient.write(response.getBytes(ISO_8859_1));
            toClient.write(xml);
            toClient.flush();
            return;
          }
          default -> {
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
            fromServer = new BufferedInputStream(server.getInputStream());
            OutputStream toServer = new BufferedOutputStream(server.getOutputStream());
            toServer.write(head.getBytes(ISO_8859_1));
            toServer.write(body);
            toServer.flush();
            String responseHead = readHead(fromServer);
            if (responseHead == null) {
              return;
            }
            byte[] responseBody = readBody(fromServer, responseHead, method.equals("HEAD"));
            if (fault.kind() == Fault.Kind.DROP_AFTER) {
              return; // the server acted; the client never hears the answer
            }
            toClient.write(responseHead.getBytes(ISO_8859_1));
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
      // a message this proxy cannot parse: say so, so that no test takes it for a store fault
      log.add(PROXY_FAILED + e);
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
    String encoding = header(head, "transfer-encoding");
    if (encoding != null && encoding.toLowerCase(Locale.ROOT).contains("chunked")) {
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
}
