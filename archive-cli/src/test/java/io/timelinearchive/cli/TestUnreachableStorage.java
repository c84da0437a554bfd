package io.timelinearchive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Exit 5 for every backend when the store cannot be asked: a closed local port (refused), a host
 * under {@code .invalid} (which never resolves, RFC 2606), and a port that accepts connections and
 * never answers, each through the real SDK to a real socket. The error gives the client's reason
 * and names the settings to check.
 */
class TestUnreachableStorage {
  // Azurite's published development key: any well-formed key will do, nothing checks it here.
  private static final String AZURE_KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  private static int closedPort;
  private static ServerSocket silent;

  @BeforeAll
  static void ports() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    // Never accepted nor read: the kernel completes the handshakes, no byte ever comes back.
    silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
  }

  @AfterAll
  static void close() throws IOException {
    silent.close();
  }

  enum Backend {
    S3("s3.endpoint", "s3.socket-timeout", "s3.max-retries=0"),
    GCS("gcs.endpoint", "gcs.read-timeout", "gcs.retries=0"),
    AZURE("azure.endpoint", "azure.response-timeout", "azure.max-retries=0"),
    HDFS("hadoop.connect-timeout", "hadoop.request-timeout", "hadoop.connect-retries=0");

    final String endpointKey;
    final String timeoutKey;
    final String noRetries;

    Backend(String endpointKey, String timeoutKey, String noRetries) {
      this.endpointKey = endpointKey;
      this.timeoutKey = timeoutKey;
      this.noRetries = noRetries;
    }

    /** {@code plan} of a table on this backend's store at {@code host:port}. */
    List<String> plan(String host, int port, String... conf) {
      List<String> args = new ArrayList<>(List.of("plan"));
      String endpoint = "http://" + host + ":" + port;
      switch (this) {
        case S3 -> {
          args.add("s3://bucket/t");
          args.addAll(conf("s3.endpoint=" + endpoint, "s3.path-style-access=true"));
          args.addAll(conf("s3.access-key=key", "s3.secret-key=secret"));
        }
        case GCS -> {
          args.add("gs://bucket/t");
          args.addAll(conf("gcs.endpoint=" + endpoint, "gcs.no-credentials=true"));
        }
        case AZURE -> {
          args.add("abfs://container@devstoreaccount1/t");
          args.addAll(
              conf(
                  "azure.endpoint=" + endpoint + "/devstoreaccount1",
                  "azure.account-key=" + AZURE_KEY));
        }
        case HDFS -> args.add("hdfs://" + host + ":" + port + "/t");
      }
      args.addAll(conf(conf));
      return args;
    }

    private static List<String> conf(String... settings) {
      List<String> args = new ArrayList<>();
      for (String s : settings) {
        args.add("--conf");
        args.add(s);
      }
      return args;
    }
  }

  private static void assertUnreachable(Cli.Run run, String... named) {
    assertThat(run.exitCode()).as("exit code; stderr: %s", run.err()).isEqualTo(5);
    assertThat(run.out()).isEmpty();
    assertThat(run.errLines()).first().asString().startsWith("error: cannot reach the store for ");
    assertThat(run.errLines().get(0)).contains(named);
    assertThat(run.hasStackTrace()).isFalse();
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void aRefusedConnectionIsExit5NamingWhereRequestsGo(Backend backend) {
    Cli.Run run = Cli.run(backend.plan("127.0.0.1", closedPort).toArray(String[]::new));

    assertUnreachable(run, "ConnectException", backend.endpointKey, backend.timeoutKey);
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void anUnresolvableHostIsExit5NamingWhereRequestsGo(Backend backend) {
    Cli.Run run = Cli.run(backend.plan("no-such-host.invalid", 9).toArray(String[]::new));

    assertUnreachable(run, "UnknownHostException", "no-such-host.invalid", backend.endpointKey);
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void aSilentEndpointTimesOutAsConfiguredNamingTheTimeoutSetting(Backend backend) {
    Cli.Run run =
        Cli.run(
            backend
                .plan(
                    "127.0.0.1",
                    silent.getLocalPort(),
                    backend.timeoutKey + "=500ms",
                    backend.noRetries)
                .toArray(String[]::new));

    assertUnreachable(run, backend.timeoutKey);
    assertThat(run.errLines().get(0)).containsIgnoringCase("time");
  }
}
