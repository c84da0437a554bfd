package io.timelinearchive.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.timelinearchive.storage.s3.S3ProxyServer;
import io.timelinearchive.testing.FaultProxy;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * P7: one archival run on an object store with latency, ours (the CLI jar) against Hudi 0.15's
 * archiver through S3A, whole processes, on identical copies of a Hudi-written table uploaded to
 * S3Proxy. Both talk to S3Proxy through the fault proxy, which holds every request {@link
 * #DELAY_MS} ms before forwarding it and notes when it arrived and how many were being held at
 * once.
 */
final class LatencyFigure {
  private static final Logger LOG = LoggerFactory.getLogger(LatencyFigure.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  static final int DELAY_MS = 10;
  private static final String TABLE_KEY = "warehouse/trips";
  // storage-s3's setting names (its S3Config is package-private), as in its README
  private static final String S3_ENDPOINT = "s3.endpoint";
  private static final String S3_REGION = "s3.region";
  private static final String S3_ACCESS_KEY = "s3.access-key";
  private static final String S3_SECRET_KEY = "s3.secret-key";

  /** The requests of one run as the proxy saw them. */
  record Wire(int requests, int chain, int maxInFlight) {
    String describe() {
      return String.format(
          Locale.ROOT,
          "%,d requests, serial chain %,d, at most %d in flight",
          requests,
          chain,
          maxInFlight);
    }
  }

  private final Path work;
  private final Path cliJar;
  private final int repetitions;
  private final List<Long> arrivals = Collections.synchronizedList(new ArrayList<>());
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger maxInFlight = new AtomicInteger();

  LatencyFigure(Path work, Path cliJar, int repetitions) {
    this.work = work;
    this.cliJar = cliJar;
    this.repetitions = repetitions;
  }

  Row measure(HudiWrittenTables.Table table) throws Exception {
    S3ProxyServer server = S3ProxyServer.shared();
    Path logs = work.resolve("p7-logs");
    List<Long> ours = new ArrayList<>();
    List<Long> hudi = new ArrayList<>();
    List<Long> oursCpu = new ArrayList<>();
    List<Long> hudiCpu = new ArrayList<>();
    List<Wire> ourWire = new ArrayList<>();
    List<Wire> hudiWire = new ArrayList<>();
    List<String> phases = new ArrayList<>();
    String same = null;
    int archived = 0;
    try (FaultProxy proxy = new FaultProxy(server.endpoint())) {
      proxy.rule(
          request -> {
            arrivals.add(System.nanoTime());
            maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            try {
              Thread.sleep(DELAY_MS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            } finally {
              inFlight.decrementAndGet();
            }
            return FaultProxy.Fault.FORWARD;
          });
      for (int rep = 0; rep < repetitions; rep++) {
        String oursBucket = upload(server.admin(), server.newBucket(), table.dir());
        String hudiBucket = upload(server.admin(), server.newBucket(), table.dir());
        for (int turn = 0; turn < 2; turn++) {
          Timing.settle();
          resetWire();
          if ((turn + rep) % 2 == 0) {
            List<String> command =
                HudiWrittenFigure.cliArchive(
                    "s3://" + oursBucket + "/" + TABLE_KEY, ourS3Config(server, proxy.endpoint()));
            ChildJvm.Outcome o =
                ChildJvm.runCli(cliJar, command, logs).requireSuccess("our CLI on S3");
            ours.add(o.nanos());
            oursCpu.add(o.cpuNanos());
            ourWire.add(wire());
            JsonNode report = JSON.readTree(o.stdout());
            archived = report.get("filesDeleted").asInt();
            phases.add(report.get("phasesMillis").toString());
          } else {
            List<String> args = new ArrayList<>();
            args.add("s3a://" + hudiBucket + "/" + TABLE_KEY);
            args.add(HudiWriter.TABLE_NAME);
            s3aConfig(server, proxy.endpoint()).forEach((k, v) -> args.add(k + "=" + v));
            ChildJvm.Outcome o =
                ChildJvm.runMain(HudiArchiveChild.class, args, logs)
                    .requireSuccess("Hudi's archiver through S3A");
            hudi.add(o.nanos());
            hudiCpu.add(o.cpuNanos());
            hudiWire.add(wire());
          }
        }
        Set<String> oursLeft = activeKeys(server.admin(), oursBucket);
        Set<String> hudiLeft = activeKeys(server.admin(), hudiBucket);
        java.util.Optional<String> diff = Tables.difference(oursLeft, hudiLeft);
        if (diff.isPresent()) {
          same = diff.get();
          LOG.warn("P7: {}", same);
        } else if (same == null) {
          same = "same active timeline left by both (" + oursLeft.size() + " files)";
        }
      }
    }
    long oursMedian = Timing.median(ours);
    long hudiMedian = Timing.median(hudi);
    int medianRun = ours.indexOf(oursMedian);
    Wire oursTypical = ourWire.get(Math.max(0, medianRun));
    Wire hudiTypical = hudiWire.get(Math.max(0, hudi.indexOf(hudiMedian)));
    double ratio = (double) hudiMedian / oursMedian;
    String note =
        String.format(
            Locale.ROOT,
            "%s instant files (%,d archived) uploaded to S3Proxy; every request held %d ms by the"
                + " fault proxy; whole processes, median of %d; ours %s wall, %s CPU (requests %s),"
                + " Hudi %s wall, %s CPU (requests %s); serial chain = requests that arrived at least %d ms after the"
                + " previous one of the chain, greedily from the first; our phases (median run,"
                + " ms): %s; %s",
            Timing.count(table.instantFiles()),
            archived,
            DELAY_MS,
            repetitions,
            ours.stream().map(Timing::millis).toList(),
            oursCpu.stream().map(Timing::millis).toList(),
            ourWire.stream().map(Wire::describe).toList(),
            hudi.stream().map(Timing::millis).toList(),
            hudiCpu.stream().map(Timing::millis).toList(),
            hudiWire.stream().map(Wire::describe).toList(),
            DELAY_MS,
            medianRun >= 0 ? phases.get(medianRun) : phases,
            same);
    LOG.info("P7: ours {} ({}) Hudi {} ({})", oursMedian, oursTypical, hudiMedian, hudiTypical);
    return new Row(
        "P7 archival, S3Proxy + " + DELAY_MS + " ms per request",
        Timing.count(table.instantFiles() / 3)
            + " instants, Hudi-written ("
            + Timing.count(table.instantFiles())
            + " files)",
        Timing.millis(oursMedian) + "; " + oursTypical.describe(),
        "Hudi 0.15 via S3A: " + Timing.millis(hudiMedian) + "; " + hudiTypical.describe(),
        Timing.ratio(ratio) + " (Hudi / ours)",
        "≥ 10×",
        ratio >= 10,
        note,
        ratio);
  }

  private void resetWire() {
    arrivals.clear();
    maxInFlight.set(0);
  }

  private Wire wire() {
    List<Long> times;
    synchronized (arrivals) {
      times = new ArrayList<>(arrivals);
    }
    Collections.sort(times);
    int chain = 0;
    long last = Long.MIN_VALUE;
    for (long t : times) {
      if (chain == 0 || t - last >= DELAY_MS * 1_000_000L) {
        chain++;
        last = t;
      }
    }
    return new Wire(times.size(), chain, maxInFlight.get());
  }

  /** Our S3 backend's settings, pointed at the proxy. */
  private static Map<String, String> ourS3Config(S3ProxyServer server, URI proxy) {
    Map<String, String> config = new java.util.TreeMap<>(server.config());
    config.put(S3_ENDPOINT, proxy.toString());
    return config;
  }

  /** S3A's settings for the same server and credentials, pointed at the proxy. */
  private static Map<String, String> s3aConfig(S3ProxyServer server, URI proxy) {
    Map<String, String> s3 = server.config();
    Map<String, String> config = new java.util.TreeMap<>();
    config.put("fs.s3a.endpoint", proxy.toString());
    config.put("fs.s3a.endpoint.region", s3.get(S3_REGION));
    config.put("fs.s3a.path.style.access", "true");
    config.put("fs.s3a.connection.ssl.enabled", "false");
    config.put("fs.s3a.access.key", s3.get(S3_ACCESS_KEY));
    config.put("fs.s3a.secret.key", s3.get(S3_SECRET_KEY));
    config.put(
        "fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    return config;
  }

  /** Uploads the table's {@code .hoodie/} files (checksums and sub-folders aside) to a bucket. */
  private static String upload(S3Client admin, String bucket, Path table) throws Exception {
    Path meta = table.resolve(".hoodie");
    List<Path> files;
    try (Stream<Path> listing = Files.list(meta)) {
      files =
          listing
              .filter(Files::isRegularFile)
              .filter(f -> !f.getFileName().toString().endsWith(".crc"))
              .toList();
    }
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> puts = new ArrayList<>();
      for (Path f : files) {
        puts.add(
            pool.submit(
                () -> {
                  admin.putObject(
                      b -> b.bucket(bucket).key(TABLE_KEY + "/.hoodie/" + f.getFileName()),
                      RequestBody.fromBytes(Files.readAllBytes(f)));
                  return null;
                }));
      }
      for (Future<?> put : puts) {
        put.get();
      }
    } finally {
      pool.shutdownNow();
    }
    return bucket;
  }

  /** The instant files directly under {@code .hoodie/} of the bucket's table. */
  private static Set<String> activeKeys(S3Client admin, String bucket) throws IOException {
    Set<String> names = new TreeSet<>();
    String prefix = TABLE_KEY + "/.hoodie/";
    admin
        .listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix).delimiter("/"))
        .forEach(
            page -> {
              for (S3Object o : page.contents()) {
                String name = o.key().substring(prefix.length());
                if (!name.isEmpty() && Character.isDigit(name.charAt(0))) {
                  names.add(name);
                }
              }
              for (CommonPrefix ignored : page.commonPrefixes()) {
                // sub-folders (archived/) are not the active timeline
              }
            });
    return names;
  }
}
