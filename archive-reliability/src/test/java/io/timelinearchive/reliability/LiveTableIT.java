package io.timelinearchive.reliability;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.hdfs.MiniDfs;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Archival of a live table (issue 20, part 1): Apache Hudi 0.15's write client ({@link LiveWriter},
 * a JVM of its own) commits to a table, copy-on-write or merge-on-read with inline compaction, the
 * metadata table on and cleaning inline, while our CLI archives it in a loop (a JVM per run, one
 * after the other) and a reader ({@link TimelineWatcher}, this JVM) looks at the active and the
 * archived timelines again and again. Checked: no writer call fails; the reader never sees a commit
 * the writer completed missing, nor one turned pending-looking, nor a hole; at the end every
 * instant the writer completed or the reader saw is active or archived, and Hudi's read path,
 * through the metadata table, returns every record the writer committed with the value it last
 * wrote.
 *
 * <p>{@code -Dreliability.live-commits=N} sets the writer's commits per table (the short form's 15;
 * the long form's, several minutes of writing, in the README).
 */
class LiveTableIT {
  private static final int COMMITS = Integer.getInteger("reliability.live-commits", 15);
  private static final Pattern ARCHIVED = Pattern.compile("archived (\\d+) instant file\\(s\\)");
  private static final Path JAVA = Path.of(System.getProperty("java.home"), "bin", "java");
  // Hudi's keys, read by ours too: few commits kept active, so that archival runs often; the
  // cleaner keeps fewer than archival does, as Hudi requires
  private static final Map<String, String> ARCHIVAL =
      Map.of(
          "hoodie.keep.min.commits", "4",
          "hoodie.keep.max.commits", "6",
          "hoodie.commits.archival.batch", "4");

  @RegisterExtension static final MiniDfs DFS = new MiniDfs();
  @TempDir static Path work;

  // -Dreliability.live-tables=local:MERGE_ON_READ,s3:COPY_ON_WRITE runs only those; "all" every
  // one. Local disk by default: HDFS and S3Proxy take minutes more, for the long form
  private static final String ONLY =
      System.getProperty("reliability.live-tables", "local:COPY_ON_WRITE,local:MERGE_ON_READ");

  static Stream<Arguments> tables() {
    List<String> only = ONLY.equals("all") ? List.of() : List.of(ONLY.split(","));
    return Stream.of("local", "hdfs", "s3")
        .flatMap(s -> Stream.of("COPY_ON_WRITE", "MERGE_ON_READ").map(t -> s + ":" + t))
        .filter(st -> only.isEmpty() || only.contains(st))
        .map(st -> Arguments.of(st.split(":")[0], st.split(":")[1]));
  }

  private static Store store(String name) {
    return switch (name) {
      case "local" -> Store.local(work.resolve("local"));
      case "hdfs" -> Store.hdfs(DFS);
      case "s3" -> Store.s3();
      default -> throw new IllegalArgumentException(name);
    };
  }

  @ParameterizedTest(name = "{0}, {1}")
  @MethodSource("tables")
  void archivingWhileHudiWritesLosesNothingAndHidesNothing(String storeName, String type)
      throws Exception {
    Store store = store(storeName);
    StorageLocation table = store.newRoot("live-" + type.toLowerCase(java.util.Locale.ROOT));
    Path progress = Files.createTempFile(work, "progress", ".txt");
    Files.delete(progress);

    Process writer =
        startWriter(store, "write", hudiBase(table), type, "" + COMMITS, progress.toString());
    TimelineWatcher watcher = new TimelineWatcher(store, table, progress);
    List<String> archiverFailures = new ArrayList<>();
    int runs = 0;
    int archived = 0;
    long started = System.nanoTime();
    // the reader looks between the archiver's runs and while each one runs
    while (true) {
      boolean writing = writer.isAlive();
      if (!Files.exists(progress)) {
        watcher.look();
        Thread.sleep(100);
        if (writing) {
          continue;
        }
      }
      Jar.Started run = Jar.start(work, archiveArgs(store, table));
      while (run.process().isAlive()) {
        watcher.look();
      }
      Jar.Run done = run.await();
      runs++;
      if (done.exitCode() != 0) {
        archiverFailures.add("run " + runs + " exit " + done.exitCode() + ": " + done.err());
      } else {
        archived += archivedBy(done);
      }
      watcher.look();
      if (!writing) {
        break; // this run started after the last commit: the table is as archived as it gets
      }
    }
    long seconds = (System.nanoTime() - started) / 1_000_000_000;
    String writerErr = Files.readString(work.resolve(writerLog(progress, "err")), UTF_8);
    List<String> committed = TimelineWatcher.completedByWriter(progress);
    // Hudi's writer reads instants of a timeline it loaded before a run of ours archived them
    // (the upsert partitioner's size estimate, say); it logs the error and carries on
    long stale =
        writerErr
            .lines()
            .filter(
                l ->
                    l.startsWith(
                        "org.apache.hudi.exception.HoodieIOException: Could not read commit details"))
            .count();
    System.out.printf(
        "live %s %s: %d commits in %d s; %d archival runs archived %d instant files; %d looks by"
            + " the reader (%d listed the archive again, a file gone to a merge); %d violations, %d"
            + " archiver failures; Hudi's writer logged %d errors reading an instant file archived"
            + " meanwhile%n",
        store,
        type,
        committed.size(),
        seconds,
        runs,
        archived,
        watcher.looks(),
        watcher.archiveRelistings(),
        watcher.violations().size(),
        archiverFailures.size(),
        stale);

    assertThat(writer.exitValue()).as("the writer's exit; its stderr: %s", writerErr).isZero();
    assertThat(committed).as("commits the writer completed").hasSize(COMMITS);
    assertThat(archiverFailures).as("archival runs that failed").isEmpty();
    assertThat(watcher.violations()).as("what the reader saw wrong").isEmpty();
    assertThat(watcher.lost()).as("instants neither active nor archived at the end").isEmpty();
    assertThat(archived).as("instant files archived while the writer wrote").isPositive();

    Path rows = work.resolve(progress.getFileName() + ".rows");
    Process reader = startWriter(store, "read", hudiBase(table), rows.toString());
    assertThat(reader.waitFor(15, TimeUnit.MINUTES)).as("Hudi's read finished").isTrue();
    assertThat(reader.exitValue())
        .as("Hudi's read: %s", Files.readString(work.resolve(writerLog(rows, "err")), UTF_8))
        .isZero();
    assertThat(read(rows)).as("records read by Hudi").isEqualTo(expectedRows(committed));
  }

  /** The table as Hudi names it: Hadoop's S3A, where we say {@code s3://}. */
  private static String hudiBase(StorageLocation table) {
    String uri = table.toString();
    return uri.startsWith("s3://") ? "s3a://" + uri.substring("s3://".length()) : uri;
  }

  /** The store's settings as Hadoop's keys, which Hudi's writer reads. */
  private static Map<String, String> hadoopSettings(Store store) {
    Map<String, String> hadoop = new TreeMap<>();
    Map<String, String> ours = store.config();
    if (store.name().equals("s3")) {
      hadoop.put("fs.s3a.endpoint", ours.get("s3.endpoint"));
      hadoop.put("fs.s3a.endpoint.region", ours.get("s3.region"));
      hadoop.put("fs.s3a.path.style.access", "true");
      hadoop.put("fs.s3a.connection.ssl.enabled", "false");
      hadoop.put("fs.s3a.access.key", ours.get("s3.access-key"));
      hadoop.put("fs.s3a.secret.key", ours.get("s3.secret-key"));
      hadoop.put(
          "fs.s3a.aws.credentials.provider",
          "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    }
    ours.forEach(
        (k, v) -> {
          if (k.startsWith("hadoop.")) {
            hadoop.put(k.substring("hadoop.".length()), v);
          }
        });
    return hadoop;
  }

  private static List<String> archiveArgs(Store store, StorageLocation table) {
    List<String> args =
        new ArrayList<>(List.of("archive", table.toString(), "--conf", "archive.lock.lease=1h"));
    new TreeMap<>(ARCHIVAL).forEach((k, v) -> args.addAll(List.of("--conf", k + "=" + v)));
    args.addAll(store.conf());
    return args;
  }

  private static int archivedBy(Jar.Run run) {
    Matcher m = ARCHIVED.matcher(run.out());
    return m.find() ? Integer.parseInt(m.group(1)) : 0;
  }

  /** What Hudi must read: each key with the instant of the last commit that wrote it. */
  private static Map<String, String> expectedRows(List<String> committed) {
    Map<String, String> rows = new TreeMap<>();
    for (int i = 0; i < committed.size(); i++) {
      for (String key : LiveWriter.keys(i)) {
        rows.put(key, committed.get(i));
      }
    }
    return rows;
  }

  private static Map<String, String> read(Path rows) throws Exception {
    Map<String, String> read = new TreeMap<>();
    for (String line : Files.readAllLines(rows, UTF_8)) {
      String[] kv = line.split(" ");
      read.put(kv[0], kv[1]);
    }
    return read;
  }

  private static String writerLog(Path file, String stream) {
    return file.getFileName() + "." + stream;
  }

  /**
   * {@link LiveWriter}'s class path: this test's (Hadoop 3.5), but on HDFS our test classes and
   * archive-reliability-hadoop2's Hudi 0.15 on the Hadoop 2.10 client, the Hadoop HBase 2.4 was
   * built for. HBase's HFile reader, which reads the metadata table, calls {@code
   * HdfsDataInputStream.getReadStatistics} on closing a file, and Hadoop 3 changed what that
   * returns (NoSuchMethodError; apache/hudi#6414).
   */
  private static String writerClassPath(Store store) throws Exception {
    if (!store.name().equals("hdfs")) {
      return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }
    Path hadoop2 = Path.of(System.getProperty("reliability.hadoop2-writer-class-path"));
    if (!Files.isRegularFile(hadoop2)) {
      throw new IllegalStateException(
          "no writer class path for HDFS at "
              + hadoop2
              + ": the build writes it when -Dreliability.live-tables is given (its profile adds"
              + " archive-reliability-hadoop2 to the reactor)");
    }
    Path ours =
        Path.of(LiveWriter.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    return ours + File.pathSeparator + Files.readString(hadoop2, UTF_8).trim();
  }

  /**
   * Starts {@link LiveWriter} in a JVM of its own on {@link #writerClassPath}, with the store's
   * Hadoop settings and the archival settings; its output goes next to {@code args}' last file.
   */
  private static Process startWriter(Store store, String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(JAVA.toString());
    command.add("-Xmx512m");
    command.add("-XX:+UseSerialGC");
    command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
    // HBase's HFile reader, which reads the metadata table, reaches into java.nio
    command.add("--add-opens=java.base/java.nio=ALL-UNNAMED");
    command.add("--add-opens=java.base/sun.nio.ch=ALL-UNNAMED");
    command.add("-cp");
    command.add(writerClassPath(store));
    command.add(LiveWriter.class.getName());
    command.addAll(List.of(args));
    ARCHIVAL.forEach((k, v) -> command.add(k + "=" + v));
    hadoopSettings(store).forEach((k, v) -> command.add(k + "=" + v));
    Path named = Path.of(args[args.length - 1]);
    return new ProcessBuilder(command)
        .redirectOutput(work.resolve(writerLog(named, "out")).toFile())
        .redirectError(work.resolve(writerLog(named, "err")).toFile())
        .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
        .start();
  }
}
