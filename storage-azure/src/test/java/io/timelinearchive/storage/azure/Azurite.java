package io.timelinearchive.storage.azure;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.StorageSharedKeyCredential;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Azurite blob server per test JVM, from the npm package the build installs under {@code
 * target/azurite}: bound to 127.0.0.1 on a port the OS picks, data in memory, stopped by its PID
 * when the test plan ends (or, as a backstop, when the JVM exits).
 *
 * <p>Register with {@code @ExtendWith(Azurite.Extension.class)} and get it with {@link #get()}.
 */
public final class Azurite implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Azurite.class);

  /** Azurite's built-in account and its published, public development key. */
  public static final String ACCOUNT = "devstoreaccount1";

  public static final String KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  private static final Pattern LISTENING =
      Pattern.compile("successfully listens on http://127\\.0\\.0\\.1:(\\d+)");
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration MAX_AGE = Duration.ofMinutes(7);

  private static Azurite instance;

  private final Process process;
  private final int port;
  private final String version;
  private final Duration startTime;
  private final Path log;
  private final Instant started = Instant.now();

  private Azurite(Process process, int port, String version, Duration startTime, Path log) {
    this.process = process;
    this.port = port;
    this.version = version;
    this.startTime = startTime;
    this.log = log;
  }

  /**
   * The running server, started on first use, and started afresh when it has run for {@link
   * #MAX_AGE}: under load, a server that had taken and deleted blobs for 10 minutes answered no
   * request for the next 8 to 12 (Azurite first runs its blob GC 10 minutes after start). So a test
   * that runs long asks for the server again now and then, and tables do not outlive it.
   */
  public static synchronized Azurite get() {
    if (instance != null && instance.process.isAlive()) {
      if (Duration.between(instance.started, Instant.now()).compareTo(MAX_AGE) < 0) {
        return instance;
      }
      LOG.info(
          "Azurite (pid {}) has run for {}: starting a fresh one", instance.process.pid(), MAX_AGE);
      instance.close();
    }
    try {
      instance = start();
    } catch (IOException e) {
      throw new IllegalStateException("cannot start Azurite: " + e.getMessage(), e);
    }
    Azurite started = instance;
    Runtime.getRuntime().addShutdownHook(new Thread(started::close, "azurite-stop"));
    return instance;
  }

  private static Azurite start() throws IOException {
    Path dir = Paths.get(System.getProperty("azurite.dir", "target/azurite")).toAbsolutePath();
    String expectedVersion = System.getProperty("azurite.version");
    Path packageJson = dir.resolve("node_modules/azurite/package.json");
    Path main = dir.resolve("node_modules/azurite/dist/src/blob/main.js");
    if (!Files.isRegularFile(main)) {
      throw new IOException(
          "Azurite is not installed under "
              + dir
              + "; the build installs it (./mvnw verify -pl storage-azure)");
    }
    Matcher versionMatch =
        Pattern.compile("\"version\"\\s*:\\s*\"([^\"]+)\"")
            .matcher(Files.readString(packageJson, UTF_8));
    String version = versionMatch.find() ? versionMatch.group(1) : "unknown";
    if (expectedVersion != null && !expectedVersion.equals(version)) {
      throw new IOException(
          "Azurite "
              + version
              + " is installed under "
              + dir
              + " but the build pins "
              + expectedVersion
              + "; run ./mvnw clean verify -pl storage-azure");
    }

    Path work = Files.createDirectories(dir.getParent().resolve("azurite-run"));
    Path log = work.resolve("azurite-" + UUID.randomUUID() + ".log");
    List<String> command = new ArrayList<>();
    command.add("node");
    command.add(main.toString());
    command.addAll(
        List.of(
            "--blobHost",
            "127.0.0.1",
            "--blobPort",
            "0",
            "--inMemoryPersistence",
            // Deleted blobs free their extents only at Azurite's GC, 10 minutes after start, past
            // the server's age limit: every byte a server is given counts until it stops. 256 MB
            // was filled within 7 minutes by 30 crash trials on an idle machine (409
            // MemoryExtentStoreAtSizeLimit); the suite's machines have 24 GiB.
            "--extentMemoryLimit",
            "2048",
            "--disableTelemetry",
            "--skipApiVersionCheck",
            "--disableProductStyleUrl"));
    long startNanos = System.nanoTime();
    Process process =
        new ProcessBuilder(command)
            .directory(work.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    try {
      long deadline = startNanos + START_TIMEOUT.toNanos();
      while (System.nanoTime() < deadline) {
        String output = Files.readString(log, UTF_8);
        Matcher listening = LISTENING.matcher(output);
        if (listening.find()) {
          Duration startTime = Duration.ofNanos(System.nanoTime() - startNanos);
          int port = Integer.parseInt(listening.group(1));
          LOG.info(
              "Azurite {} started in {} ms on 127.0.0.1:{} (pid {}, log {})",
              version,
              startTime.toMillis(),
              port,
              process.pid(),
              log);
          return new Azurite(process, port, version, startTime, log);
        }
        if (!process.isAlive()) {
          throw new IOException(
              "Azurite exited with " + process.exitValue() + " before listening:\n" + output);
        }
        Thread.sleep(50);
      }
      throw new IOException(
          "Azurite did not listen within " + START_TIMEOUT + ":\n" + Files.readString(log, UTF_8));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stop(process);
      throw new IOException("interrupted while starting Azurite", e);
    } catch (IOException | RuntimeException e) {
      stop(process);
      throw e;
    }
  }

  public int port() {
    return port;
  }

  public String version() {
    return version;
  }

  public Duration startTime() {
    return startTime;
  }

  public Path log() {
    return log;
  }

  /** The path-style blob endpoint of the emulator's account. */
  public String endpoint() {
    return "http://127.0.0.1:" + port + "/" + ACCOUNT;
  }

  /** Settings that point a storage at this server with the account key. */
  public Map<String, String> config() {
    return Map.of(
        AzureConfig.ENDPOINT.key(),
        endpoint(),
        AzureConfig.ACCOUNT_KEY.key(),
        KEY,
        // on a busy machine the server is slow, not gone: the CLI's fail-fast 3 s gave up on a
        // batch delete Azurite answered later
        AzureConfig.CONNECT_TIMEOUT.key(),
        "30s",
        AzureConfig.RESPONSE_TIMEOUT.key(),
        "120s");
  }

  public BlobServiceClient serviceClient() {
    return new BlobServiceClientBuilder()
        .endpoint(endpoint())
        .credential(new StorageSharedKeyCredential(ACCOUNT, KEY))
        .buildClient();
  }

  /** The root of a container as an abfs location, the way a Hudi table on ADLS names it. */
  public static StorageLocation rootOf(String container) {
    return StorageLocation.of("abfs://" + container + "@" + ACCOUNT + ".dfs.core.windows.net/");
  }

  /** A new, empty container with a unique name. */
  public BlobContainerClient newContainer() {
    BlobContainerClient container =
        serviceClient().getBlobContainerClient("t" + UUID.randomUUID().toString().replace("-", ""));
    // the name is new: a container already there is this call's own, from an attempt whose answer
    // the client did not get before it retried
    container.createIfNotExists();
    return container;
  }

  @Override
  public synchronized void close() {
    stop(process);
  }

  private static void stop(Process process) {
    ProcessHandle handle = process.toHandle();
    if (!handle.isAlive()) {
      return;
    }
    handle.descendants().forEach(ProcessHandle::destroy);
    handle.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        handle.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
      LOG.info("Azurite (pid {}) stopped", handle.pid());
    } catch (InterruptedException e) {
      handle.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /** Starts the server before the first test class that uses it; stops it after the last. */
  public static final class Extension implements BeforeAllCallback {
    @Override
    public void beforeAll(ExtensionContext context) {
      context
          .getRoot()
          .getStore(ExtensionContext.Namespace.GLOBAL)
          .getOrComputeIfAbsent(Azurite.class, key -> get(), Azurite.class);
    }
  }
}
