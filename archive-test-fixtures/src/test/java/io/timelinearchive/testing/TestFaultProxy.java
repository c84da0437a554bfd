package io.timelinearchive.testing;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.timelinearchive.testing.FaultProxy.Fault;
import io.timelinearchive.testing.FaultProxy.Request;
import io.timelinearchive.testing.FaultProxy.Rule;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The proxy in front of a small echoing server on the loopback address. */
class TestFaultProxy {
  private final List<String> served = new CopyOnWriteArrayList<>();
  private HttpServer upstream;
  private FaultProxy proxy;
  private final HttpClient client =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @BeforeEach
  void start() throws IOException {
    upstream = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    upstream.createContext(
        "/",
        exchange -> {
          byte[] body = exchange.getRequestBody().readAllBytes();
          served.add(exchange.getRequestMethod() + " " + new String(body, UTF_8));
          byte[] answer = ("echo " + new String(body, UTF_8)).getBytes(UTF_8);
          exchange
              .getResponseHeaders()
              .set("Location", "http://127.0.0.1:" + port() + "/session?id=1");
          exchange.sendResponseHeaders(200, answer.length);
          exchange.getResponseBody().write(answer);
          exchange.close();
        });
    upstream.start();
    proxy = new FaultProxy(URI.create("http://127.0.0.1:" + port() + "/account"));
  }

  private int port() {
    return upstream.getAddress().getPort();
  }

  @AfterEach
  void stop() {
    proxy.close();
    upstream.stop(0);
  }

  private HttpResponse<String> post(String path, String body) throws Exception {
    return client.send(
        HttpRequest.newBuilder(proxy.endpoint().resolve(path))
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void forwardsAndRecordsAndPointsSessionUrlsAtItself() throws Exception {
    HttpResponse<String> response = post("/a?x=1", "hello");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).isEqualTo("echo hello");
    assertThat(response.headers().firstValue("Location"))
        .hasValue(proxy.endpoint() + "/session?id=1");
    assertThat(proxy.requests())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.method()).isEqualTo("POST");
              assertThat(r.path()).isEqualTo("/a");
              assertThat(r.query()).isEqualTo("x=1");
              assertThat(r.bodyText()).isEqualTo("hello");
              assertThat(r.authorization()).isEmpty();
            });
    assertThat(proxy.log()).containsExactly("POST /a?x=1 -> FORWARD 0");
  }

  @Test
  void answersErrorsAndDropsConnectionsBeforeAndAfterForwarding() throws Exception {
    proxy.inject(r -> true, Fault.respond(503, "SlowDown"), 1);
    proxy.inject(r -> true, Fault.respondJson(429), 1);
    proxy.inject(r -> true, Fault.DROP_BEFORE, 1);
    proxy.inject(r -> true, Fault.DROP_AFTER, 1);

    HttpResponse<String> xml = post("/a", "1");
    HttpResponse<String> json = post("/a", "2");
    assertThatThrownBy(() -> post("/a", "3")).isInstanceOf(IOException.class);
    assertThatThrownBy(() -> post("/a", "4")).isInstanceOf(IOException.class);
    HttpResponse<String> forwarded = post("/a", "5");

    assertThat(xml.statusCode()).isEqualTo(503);
    assertThat(xml.body()).contains("<Code>SlowDown</Code>");
    assertThat(json.statusCode()).isEqualTo(429);
    assertThat(json.body()).contains("\"code\":429");
    assertThat(forwarded.body()).isEqualTo("echo 5");
    // the dropped-after request reached the server; the dropped-before one did not
    assertThat(served).containsExactly("POST 4", "POST 5");
    assertThat(proxy.count(r -> r.method().equals("POST"))).isEqualTo(5);
  }

  @Test
  void aNewRuleReplacesEveryRuleAndCountedRulesRunOut() throws Exception {
    AtomicInteger asked = new AtomicInteger();
    proxy.rule(Rule.first(1, r -> asked.incrementAndGet() > 0, Fault.respond(500, "x")));
    assertThat(post("/a", "1").statusCode()).isEqualTo(500);
    assertThat(post("/a", "2").statusCode()).isEqualTo(200);

    proxy.rule(Rule.every(Request::isPutObject, Fault.DROP_BEFORE));
    assertThat(post("/a", "3").statusCode()).isEqualTo(200);
    assertThat(asked).hasValue(2);
  }

  @Test
  void rewritesChunkedAndGzippedBodiesAndRunsHooksBeforeForwarding() throws Exception {
    proxy.rewriteBodies(r -> r.path().startsWith("/batch/"), body -> body.replace("b", "BBB"));
    AtomicInteger hooked = new AtomicInteger();
    proxy.beforeForwarding(r -> r.path().startsWith("/batch/"), hooked::incrementAndGet);

    HttpResponse<String> rewritten =
        client.send(
            HttpRequest.newBuilder(proxy.endpoint().resolve("/batch/x"))
                // an unknown length goes out chunked
                .POST(
                    HttpRequest.BodyPublishers.ofInputStream(
                        () -> new java.io.ByteArrayInputStream("abc".getBytes(UTF_8))))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    post("/batch/y", "b");

    assertThat(rewritten.body()).isEqualTo("echo aBBBc");
    assertThat(proxy.requests().get(0).content()).asString(UTF_8).isEqualTo("abc");
    assertThat(hooked).hasValue(1);

    ByteArrayOutputStream zipped = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(zipped)) {
      out.write("{\"name\":\"archive/.commits_.archive.1\"}".getBytes(UTF_8));
    }
    Request upload =
        new Request(
            "POST",
            "/upload/storage/v1/b/bucket/o",
            "POST /upload/storage/v1/b/bucket/o HTTP/1.1\r\nContent-Encoding: gzip\r\n\r\n",
            zipped.toByteArray());
    assertThat(upload.isUpload()).isTrue();
    assertThat(upload.bodyHead()).contains("archive/.commits_.archive.1");
  }
}
