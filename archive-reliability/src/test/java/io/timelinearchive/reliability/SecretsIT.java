package io.timelinearchive.reliability;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Canary secrets in every backend's settings never reach the output of a run that fails (an
 * endpoint nobody listens on) or succeeds, in text, {@code --json} or {@code --verbose} form.
 */
class SecretsIT {
  private static final String CANARY = "CANARY7f3a9c";
  private static final String UNREACHABLE = "http://127.0.0.1:1";
  // Answers 403 at once (no SDK retries it), so that the clients get far enough to sign requests
  // and to build errors from a service's answer.
  private static com.sun.net.httpserver.HttpServer denying;
  private static String denied;

  @TempDir static Path work;
  private static Path credentials;

  @org.junit.jupiter.api.AfterAll
  static void stopServer() {
    if (denying != null) {
      denying.stop(0);
    }
  }

  @BeforeAll
  static void credentialsFile() throws Exception {
    denying =
        com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
    denying.createContext(
        "/",
        exchange -> {
          StringBuilder echo =
              new StringBuilder("<Error><Code>AuthorizationFailure</Code><Message>");
          // the path, as services do in their error bodies; never the query or headers, which no
          // real service sends back
          echo.append(exchange.getRequestMethod())
              .append(' ')
              .append(exchange.getRequestURI().getPath());
          echo.append("</Message></Error>");
          byte[] body = echo.toString().getBytes(UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/xml");
          exchange.sendResponseHeaders(403, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    denying.start();
    denied = "http://127.0.0.1:" + denying.getAddress().getPort();
    assertThat(Jar.JAR).as("the shaded jar (system property timeline-archive.jar)").isRegularFile();
    credentials = work.resolve("service-account.json");
    Files.writeString(
        credentials,
        "{\"type\":\"service_account\",\"project_id\":\"p\",\"private_key_id\":\""
            + CANARY
            + "-id\",\"private_key\":\"-----BEGIN PRIVATE KEY-----\\n"
            + CANARY
            + "-private-key\\n-----END PRIVATE KEY-----\\n\",\"client_email\":\"a@p.iam.gserviceaccount.com\","
            + "\"client_id\":\"1\",\"token_uri\":\""
            + denied
            + "/token\"}",
        UTF_8);
  }

  static Stream<List<String>> failingRuns() {
    String accountKey =
        Base64.getEncoder().encodeToString((CANARY + "-account-key").getBytes(UTF_8));
    return Stream.of(
        List.of(
            "show",
            "active",
            "s3://bucket/t",
            "--conf",
            "s3.endpoint=" + UNREACHABLE,
            "--conf",
            "s3.region=us-east-1",
            "--conf",
            "s3.path-style-access=true",
            "--conf",
            "s3.max-retries=0",
            "--conf",
            "s3.access-key=" + CANARY + "-access-key",
            "--conf",
            "s3.secret-key=" + CANARY + "-secret-key",
            "--conf",
            "s3.session-token=" + CANARY + "-session-token"),
        List.of(
            "show",
            "active",
            "s3://bucket/t",
            "--conf",
            "s3.endpoint=" + denied,
            "--conf",
            "s3.region=us-east-1",
            "--conf",
            "s3.path-style-access=true",
            "--conf",
            "s3.max-retries=0",
            "--conf",
            "s3.access-key=" + CANARY + "-access-key",
            "--conf",
            "s3.secret-key=" + CANARY + "-secret-key",
            "--conf",
            "s3.session-token=" + CANARY + "-session-token"),
        List.of(
            "show",
            "active",
            "abfs://container@account.dfs.core.windows.net/t",
            "--conf",
            "azure.endpoint=" + denied + "/account",
            "--conf",
            "azure.account-key=" + accountKey),
        List.of(
            "show",
            "active",
            "abfs://container@account.dfs.core.windows.net/t",
            "--conf",
            "azure.connection-string=DefaultEndpointsProtocol=http;AccountName=account;"
                + "AccountKey="
                + accountKey
                + ";BlobEndpoint="
                + denied
                + "/account;"),
        List.of(
            "show",
            "active",
            "abfs://container@account.dfs.core.windows.net/t",
            "--conf",
            "azure.endpoint=" + denied + "/account",
            "--conf",
            "azure.sas-token=sv=2024-01-01&sig=" + CANARY + "-sas"),
        List.of(
            "show",
            "active",
            "gs://bucket/t",
            "--conf",
            "gcs.endpoint=" + denied,
            "--conf",
            "gcs.project-id=p",
            "--conf",
            "gcs.retries=0",
            "--conf",
            "gcs.credentials-file=" + work.resolve("service-account.json")));
  }

  @ParameterizedTest
  @MethodSource("failingRuns")
  void aFailingRunShowsNoSecret(List<String> args) throws Exception {
    for (List<String> extra : List.of(List.<String>of(), List.of("--json"), List.of("--verbose"))) {
      List<String> command = new ArrayList<>(args);
      command.addAll(extra);
      Jar.Run run = Jar.start(work, command).await();
      assertThat(run.exitCode()).as("%s: %s", extra, run.err()).isNotZero();
      assertThat(run.both()).as("output of %s", command).doesNotContain(CANARY);
      assertThat(run.both())
          .doesNotContain(
              Base64.getEncoder().encodeToString((CANARY + "-account-key").getBytes(UTF_8)));
    }
  }

  @Test
  void aSucceedingRunShowsNoSecret() throws Exception {
    Path table = work.resolve("t");
    Tables.write(table, 300, 5);
    String accountKey =
        Base64.getEncoder().encodeToString((CANARY + "-account-key").getBytes(UTF_8));
    for (String json : List.of("--verbose", "--json")) {
      Jar.Run run =
          Jar.run(
              work,
              "archive",
              table.toString(),
              json,
              "--conf",
              "s3.secret-key=" + CANARY + "-secret-key",
              "--conf",
              "azure.account-key=" + accountKey,
              "--conf",
              "azure.connection-string=AccountKey=" + CANARY,
              "--conf",
              "gcs.credentials-file=" + credentials);
      assertThat(run.exitCode()).as(run.err()).isZero();
      assertThat(run.both()).doesNotContain(CANARY).doesNotContain(accountKey);
    }
  }
}
