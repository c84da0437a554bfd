package io.timelinearchive.storage.gcs;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import io.timelinearchive.testing.FaultProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One fake-gcs-server (https://github.com/fsouza/fake-gcs-server) per test JVM: built from the Go
 * module proxy with {@code go install} at the version the build pins (into {@code target/gobin}
 * unless a prebuilt binary is named), started in memory mode on a free 127.0.0.1 port, and stopped
 * by its PID when the JVM exits.
 *
 * <p>System properties, set by the module's surefire configuration: {@value #VERSION} (required),
 * {@value #GOBIN} (where to install), {@value #BINARY} (a prebuilt binary of that version, e.g. one
 * that CI installed), {@value #WORK_DIR} (for the log and PID files).
 */
public final class FakeGcsServer implements AutoCloseable {
  public static final String VERSION = "fake-gcs-server.version";
  public static final String GOBIN = "fake-gcs-server.gobin";
  public static final String BINARY = "fake-gcs-server.binary";
  public static final String WORK_DIR = "fake-gcs-server.work-dir";

  public static final String PROJECT = "test-project";

  private static final Logger LOG = LoggerFactory.getLogger(FakeGcsServer.class);
  private static final String MODULE = "github.com/fsouza/fake-gcs-server";
  private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(15);
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
  private static final AtomicInteger BUCKETS = new AtomicInteger();

  private static FakeGcsServer shared;

  private final Process process;
  private final int port;
  private final Path pidFile;
  private final HttpClient http;

  private FakeGcsServer(Process process, int port, Path pidFile, HttpClient http) {
    this.process = requireNonNull(process, "process is null");
    this.port = port;
    this.pidFile = requireNonNull(pidFile, "pidFile is null");
    this.http = requireNonNull(http, "http is null");
  }

  /** The JVM's server, started on first use and stopped when the JVM exits. */
  public static synchronized FakeGcsServer shared() {
    if (shared == null) {
      try {
        shared = start();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      FakeGcsServer server = shared;
      Runtime.getRuntime()
          .addShutdownHook(new Thread(server::close, "fake-gcs-server-shutdown-" + server.pid()));
    }
    return shared;
  }

  public String endpoint() {
    return "http://127.0.0.1:" + port;
  }

  public int port() {
    return port;
  }

  public long pid() {
    return process.pid();
  }

  /** Settings that open the GCS backend on this server (and on no real GCS). */
  public Map<String, String> config() {
    return Map.of(
        GcsConfig.ENDPOINT.key(),
        endpoint(),
        GcsConfig.NO_CREDENTIALS.key(),
        "true",
        GcsConfig.PROJECT_ID.key(),
        PROJECT,
        // on a busy machine the server is slow, not gone: the CLI's fail-fast 3 s would turn a
        // slow answer into a failed run
        GcsConfig.CONNECT_TIMEOUT.key(),
        "30s",
        GcsConfig.READ_TIMEOUT.key(),
        "120s");
  }

  /** A fault proxy in front of this server. */
  public FaultProxy proxy() throws IOException {
    return new FaultProxy(URI.create(endpoint()));
  }

  /** {@link #config()} with the endpoint replaced by {@code via}'s, and the overrides added. */
  public Map<String, String> config(FaultProxy via, Map<String, String> overrides) {
    Map<String, String> config = new java.util.HashMap<>(config());
    config.put(GcsConfig.ENDPOINT.key(), via.endpoint().toString());
    config.putAll(overrides);
    return Map.copyOf(config);
  }

  /** Creates a bucket no other test uses. */
  public String newBucket(String purpose) {
    String name =
        ("t-" + purpose + "-" + BUCKETS.incrementAndGet() + "-" + ProcessHandle.current().pid())
            .toLowerCase(java.util.Locale.ROOT)
            .replaceAll("[^a-z0-9-]", "-");
    createBucket(name);
    return name;
  }

  public void createBucket(String name) {
    send(
        HttpRequest.newBuilder(URI.create(endpoint() + "/storage/v1/b?project=" + PROJECT))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"" + name + "\"}")),
        "create bucket " + name);
  }

  /** Uploads an object with any name, even one no location can hold (such as "folder/"). */
  public void upload(String bucket, String name, byte[] content) {
    send(
        HttpRequest.newBuilder(
                URI.create(
                    endpoint()
                        + "/upload/storage/v1/b/"
                        + bucket
                        + "/o?uploadType=media&name="
                        + URLEncoder.encode(name, UTF_8)))
            .header("Content-Type", "application/octet-stream")
            .POST(HttpRequest.BodyPublishers.ofByteArray(content)),
        "upload " + name);
  }

  private void send(HttpRequest.Builder request, String what) {
    try {
      HttpResponse<String> response =
          http.send(
              request.timeout(Duration.ofSeconds(30)).build(),
              HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new IllegalStateException(
            "cannot " + what + ": " + response.statusCode() + " " + response.body());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public synchronized void close() {
    if (!process.isAlive()) {
      return;
    }
    ProcessHandle handle = process.toHandle();
    handle.destroy();
    try {
      if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        handle.destroyForcibly();
        process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      handle.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    try {
      Files.deleteIfExists(pidFile);
    } catch (IOException e) {
      // best effort: a stale PID file is checked against the command before it is acted on
    }
    LOG.info("stopped fake-gcs-server (pid {})", handle.pid());
  }

  private static FakeGcsServer start() throws IOException {
    String version = requiredProperty(VERSION);
    Path workDir = Path.of(System.getProperty(WORK_DIR, "target"));
    Files.createDirectories(workDir);
    Path binary = binary(version);
    Path pidFile = workDir.resolve("fake-gcs-server.pid");
    stopLeftover(pidFile, binary);
    Path log = workDir.resolve("fake-gcs-server.log");
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    IOException lastFailure = null;
    for (int attempt = 1; attempt <= 3; attempt++) {
      // Another process may take the port between its release and the server's bind: retried.
      int port = freePort();
      long started = System.nanoTime();
      Process process =
          new ProcessBuilder(
                  binary.toString(),
                  "-scheme",
                  "http",
                  "-host",
                  "127.0.0.1",
                  "-port",
                  Integer.toString(port),
                  "-backend",
                  "memory",
                  "-log-level",
                  "warn")
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .start();
      Files.writeString(pidFile, process.pid() + "\n" + binary + "\n");
      FakeGcsServer server = new FakeGcsServer(process, port, pidFile, http);
      try {
        server.awaitReady();
        LOG.info(
            "started fake-gcs-server {} on {} (pid {}) in {} ms; log: {}",
            version,
            server.endpoint(),
            process.pid(),
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started),
            log);
        return server;
      } catch (IOException e) {
        server.close();
        lastFailure = e;
        LOG.warn("fake-gcs-server did not start on port {}: {}", port, e.getMessage());
      }
    }
    throw new IOException("fake-gcs-server did not start; see " + log, lastFailure);
  }

  private void awaitReady() throws IOException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    HttpRequest probe =
        HttpRequest.newBuilder(URI.create(endpoint() + "/storage/v1/b?project=" + PROJECT))
            .timeout(Duration.ofSeconds(2))
            .build();
    while (true) {
      if (!process.isAlive()) {
        throw new IOException("exited with " + process.exitValue());
      }
      try {
        if (http.send(probe, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while waiting for the server", e);
      }
      if (System.nanoTime() > deadline) {
        throw new IOException("not ready after " + START_TIMEOUT.toSeconds() + " s");
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while waiting for the server", e);
      }
    }
  }

  /** The prebuilt binary if one is named, else the one in GOBIN, built there first if missing. */
  private static Path binary(String version) throws IOException {
    String prebuilt = System.getProperty(BINARY, "");
    if (!prebuilt.isBlank()) {
      Path binary = Path.of(prebuilt);
      if (!Files.isExecutable(binary)) {
        throw new IOException(BINARY + " names no executable: " + binary);
      }
      checkVersion(binary, version);
      LOG.info("using the prebuilt fake-gcs-server {} at {}", version, binary);
      return binary;
    }
    Path gobin = Path.of(requiredProperty(GOBIN)).toAbsolutePath();
    Path dir = gobin.resolve(version);
    Path binary = dir.resolve("fake-gcs-server");
    if (Files.isExecutable(binary)) {
      checkVersion(binary, version);
      LOG.info("reusing fake-gcs-server {} built earlier at {}", version, binary);
      return binary;
    }
    Files.createDirectories(gobin);
    // Installed into a private directory, then moved into place: two JVMs building at once each
    // publish a whole binary.
    Path staging = Files.createTempDirectory(gobin, "install-");
    Path buildLog = gobin.resolve("go-install.log");
    List<String> command = List.of("go", "install", MODULE + "@" + version);
    long started = System.nanoTime();
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(buildLog.toFile()));
    builder.environment().put("GOBIN", staging.toString());
    LOG.info(
        "building fake-gcs-server {}: GOBIN={} {}", version, staging, String.join(" ", command));
    Process go;
    try {
      go = builder.start();
    } catch (IOException e) {
      throw new IOException(
          "cannot run 'go' to build fake-gcs-server; install Go or set -D" + BINARY, e);
    }
    try {
      if (!go.waitFor(BUILD_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        go.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
        go.destroyForcibly();
        throw new IOException("go install timed out; see " + buildLog);
      }
    } catch (InterruptedException e) {
      go.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while building fake-gcs-server", e);
    }
    if (go.exitValue() != 0) {
      throw new IOException("go install failed with " + go.exitValue() + "; see " + buildLog);
    }
    Files.createDirectories(dir);
    Files.move(
        staging.resolve("fake-gcs-server"),
        binary,
        StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);
    Files.deleteIfExists(staging);
    LOG.info(
        "built fake-gcs-server {} with go install in {} ms",
        version,
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    return binary;
  }

  /** Reads the module version the Go toolchain stamped into the binary. */
  private static void checkVersion(Path binary, String version) throws IOException {
    Optional<String> stamped = stampedVersion(binary);
    if (stamped.isEmpty()) {
      LOG.warn("cannot read the version of {} (is 'go' on the PATH?)", binary);
    } else if (!stamped.get().equals(version)) {
      throw new IOException(
          binary + " is fake-gcs-server " + stamped.get() + ", the build pins " + version);
    }
  }

  private static Optional<String> stampedVersion(Path binary) {
    try {
      Process go = new ProcessBuilder("go", "version", "-m", binary.toString()).start();
      String out = new String(go.getInputStream().readAllBytes(), UTF_8);
      if (!go.waitFor(60, TimeUnit.SECONDS) || go.exitValue() != 0) {
        return Optional.empty();
      }
      for (String line : out.split("\n")) {
        String[] fields = line.strip().split("\\s+");
        if (fields.length >= 3 && fields[0].equals("mod") && fields[1].equals(MODULE)) {
          return Optional.of(fields[2]);
        }
      }
      return Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /** Stops a server a killed test JVM left behind, if the PID file still names one of ours. */
  private static void stopLeftover(Path pidFile, Path binary) throws IOException {
    if (!Files.exists(pidFile)) {
      return;
    }
    List<String> lines = Files.readAllLines(pidFile);
    Files.delete(pidFile);
    if (lines.size() < 2) {
      return;
    }
    long pid;
    try {
      pid = Long.parseLong(lines.get(0).strip());
    } catch (NumberFormatException e) {
      return;
    }
    ProcessHandle.of(pid)
        .filter(ProcessHandle::isAlive)
        .filter(
            p ->
                p.info()
                    .command()
                    .map(c -> c.equals(lines.get(1).strip()) && c.equals(binary.toString()))
                    .orElse(false))
        .ifPresent(
            p -> {
              LOG.warn("stopping fake-gcs-server pid {} left by an earlier test run", pid);
              p.destroyForcibly();
            });
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      return socket.getLocalPort();
    }
  }

  private static String requiredProperty(String name) {
    String value = System.getProperty(name, "");
    if (value.isBlank()) {
      throw new IllegalStateException(
          "system property "
              + name
              + " is not set; run the tests through Maven (surefire sets it)");
    }
    return value;
  }
}
