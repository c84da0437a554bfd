package io.timelinearchive.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.archive.read.ArchiveReadOptions;
import io.timelinearchive.archive.read.ArchivedTimeline;
import io.timelinearchive.format.ArchivedInstant;
import io.timelinearchive.sample.SampleTable;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.azure.Azurite;
import io.timelinearchive.storage.gcs.FakeGcsServer;
import io.timelinearchive.storage.hdfs.MiniDfs;
import io.timelinearchive.storage.s3.S3ProxyServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI jar as built, run as a user runs it (its own JVM, nothing on the class path but the jar)
 * against every backend's real server: what the shade configuration leaves out of the jar must be
 * nothing that a backend loads. Each backend gets the same sample table twice; the jar of every
 * store archives one copy, the backend's own jar the other, each reads its archive back, and every
 * one must end as local disk does with the jar of every store.
 */
@ExtendWith(Azurite.Extension.class)
class ShadedJarOnEveryBackendIT {
  private static final Path JAR = Path.of(System.getProperty("timeline-archive.jar", "missing"));

  /** The jars of one store each, beside the one of every store. */
  private static final Path JARS = JAR.toAbsolutePath().getParent();

  private static final Path JAVA = Path.of(System.getProperty("java.home"), "bin", "java");
  // a JVM that has not answered in this long is stuck, not slow: one run takes seconds
  private static final long RUN_LIMIT_MINUTES = 5;

  /** The instant files of src/test/resources/hudi1-table. */
  private static final int HUDI1_TABLE_FILES = 63;

  @RegisterExtension static final MiniDfs HDFS = new MiniDfs();

  @TempDir Path work;

  /**
   * @param jar the jar of this store alone ({@code file} is in each of them)
   */
  private record Backend(String name, StorageLocation base, Map<String, String> config, Path jar) {}

  /** What a backend ended with. */
  private record Outcome(List<String> active, List<String> archived, String showArchived) {}

  private record Run(int exitCode, String out, String err) {}

  @Test
  void theJarArchivesAndReadsBackTheSameOnEveryBackend() throws Exception {
    List<Backend> backends = backends();

    Map<String, Outcome> outcomes = new LinkedHashMap<>();
    for (Backend backend : backends) {
      outcomes.put(backend.name(), archiveWithTheJar(backend, JAR, "every-store"));
      outcomes.put(
          backend.name() + " with " + backend.jar().getFileName(),
          archiveWithTheJar(backend, backend.jar(), "one-store"));
    }

    Outcome reference = outcomes.get("file");
    assertThat(outcomes).hasSize(2 * backends.size());
    assertThat(reference.archived()).isNotEmpty();
    assertThat(reference.showArchived()).contains(reference.archived().get(0));
    for (Map.Entry<String, Outcome> e : outcomes.entrySet()) {
      assertThat(e.getValue().active())
          .as("%s: active timeline after the jar's run", e.getKey())
          .isEqualTo(reference.active());
      assertThat(e.getValue().archived())
          .as("%s: archive as the library reads it", e.getKey())
          .isEqualTo(reference.archived());
      assertThat(e.getValue().showArchived())
          .as("%s: the jar's own read-back", e.getKey())
          .isEqualTo(reference.showArchived());
    }
  }

  /**
   * A table Hudi 1.0.1 wrote (src/test/resources/hudi1-table: its {@code .hoodie/}, 12 commits and
   * their cleans, its own archival off) is archived into its LSM history by the jar of every store
   * on every backend, each ending as on local disk; the one-store jars of the object stores leave
   * the 1.x archiver out and refuse the table naming the jars that hold it, changing nothing.
   */
  @Test
  void theJarArchivesAHudi1TableTheSameOnEveryBackend() throws Exception {
    Map<String, Outcome> outcomes = new LinkedHashMap<>();
    for (Backend backend : backends()) {
      StorageLocation base = backend.base().resolve("hudi1");
      StorageLocation timeline = base.resolve(".hoodie").resolve("timeline");
      try (MetaStorage storage = MetaStorages.open(base, backend.config())) {
        upload(storage, base);
        String uri = base.toString();
        // the table's cleaner retains 2 commits; the default (10) would keep all 12
        Run show =
            archiveAndShow(
                JAR, backend, uri, "3", "4", "--conf", "hoodie.clean.commits.retained=2");
        List<String> history =
            storage.list(timeline.resolve("history")).toList().stream()
                .map(FileEntry::name)
                .sorted()
                .toList();
        outcomes.put(
            backend.name(),
            new Outcome(
                ActiveInstantFiles.in(storage, timeline),
                history,
                show.out().replace(uri, "TABLE")));

        if (!backend.name().equals("file") && !backend.name().equals("hdfs")) {
          List<String> before = ActiveInstantFiles.in(storage, timeline);
          Run refused = jar(backend.jar(), backend, "archive", uri, "--min", "1", "--max", "2");
          // the one-store jars leave the 1.x archiver out
          assertThat(refused.exitCode()).as("%s: %s", backend.jar(), refused.err()).isEqualTo(3);
          assertThat(refused.err())
              .contains("is a Hudi 1.x table")
              .contains("timeline-archive.jar and timeline-archive-hdfs.jar");
          assertThat(ActiveInstantFiles.in(storage, timeline)).isEqualTo(before);
        }
      }
    }
    Outcome reference = outcomes.get("file");
    assertThat(reference.archived())
        .as("the history: one layer-0 file, manifest_1, _version_")
        .hasSize(3)
        .anyMatch(name -> name.matches("\\d+_\\d+_0\\.parquet"))
        .contains("manifest_1", "_version_");
    assertThat(reference.active()).hasSizeLessThan(HUDI1_TABLE_FILES);
    for (Map.Entry<String, Outcome> e : outcomes.entrySet()) {
      assertThat(e.getValue()).as("%s: as on local disk", e.getKey()).isEqualTo(reference);
    }
  }

  /** The files of the Hudi 1.x table, copied to {@code base} on the backend. */
  private static void upload(MetaStorage storage, StorageLocation base) throws Exception {
    Path source = Path.of(ShadedJarOnEveryBackendIT.class.getResource("/hudi1-table").toURI());
    try (var files = Files.walk(source)) {
      for (Path p : files.filter(Files::isRegularFile).toList()) {
        StorageLocation target = base;
        for (Path part : source.relativize(p)) {
          target = target.resolve(part.toString());
        }
        storage.createExclusive(target, Files.readAllBytes(p));
      }
    }
  }

  private List<Backend> backends() {
    List<Backend> backends = new ArrayList<>();
    backends.add(
        new Backend(
            "file",
            StorageLocation.of(work.resolve("t").toUri().toString()),
            Map.of(),
            JARS.resolve("timeline-archive-s3.jar")));
    backends.add(
        new Backend(
            "hdfs",
            HDFS.newRoot("jar").resolve("t"),
            HDFS.config(),
            JARS.resolve("timeline-archive-hdfs.jar")));
    S3ProxyServer s3 = S3ProxyServer.shared();
    backends.add(
        new Backend(
            "s3",
            StorageLocation.of("s3://" + s3.newBucket() + "/t"),
            s3.config(),
            JARS.resolve("timeline-archive-s3.jar")));
    Azurite azurite = Azurite.get();
    backends.add(
        new Backend(
            "azure",
            Azurite.rootOf(azurite.newContainer().getBlobContainerName()).resolve("t"),
            azurite.config(),
            JARS.resolve("timeline-archive-azure.jar")));
    FakeGcsServer gcs = FakeGcsServer.shared();
    backends.add(
        new Backend(
            "gcs",
            StorageLocation.of("gs://" + gcs.newBucket("jar") + "/t"),
            gcs.config(),
            JARS.resolve("timeline-archive-gcs.jar")));
    return backends;
  }

  /** Writes the sample table in {@code folder} of the backend and archives it with {@code jar}. */
  private Outcome archiveWithTheJar(Backend backend, Path jar, String folder) throws Exception {
    assertThat(jar).as("the CLI jar").isRegularFile();
    StorageLocation base = backend.base().resolve(folder);
    StorageLocation meta = base.resolve(".hoodie");
    try (MetaStorage storage = MetaStorages.open(base, backend.config())) {
      SampleTable.Written table = SampleTable.write(storage, base, SampleTable.Spec.ofSize(150, 7));
      String uri = base.toString();

      Run show = archiveAndShow(jar, backend, uri, "5", "10");

      List<String> active = ActiveInstantFiles.in(storage, meta);
      assertThat(active)
          .as("%s: the run deleted archived files", backend.name())
          .hasSizeLessThan(table.files().size());
      List<String> archived = new ArrayList<>();
      for (ArchivedInstant a :
          ArchivedTimeline.load(storage, meta.resolve("archived"), ArchiveReadOptions.all())
              .instants()) {
        archived.add(a.instant().toString());
      }
      // the listing names the table; the rest must match across backends
      return new Outcome(active, archived, show.out().replace(uri, "TABLE"));
    }
  }

  /**
   * Archives the table at {@code uri} with {@code jar}, keeping {@code min} to {@code max} commits,
   * then shows its archive; both must succeed.
   *
   * @return the run of {@code show archived}
   */
  private Run archiveAndShow(
      Path jar, Backend backend, String uri, String min, String max, String... more)
      throws IOException, InterruptedException {
    List<String> args = new ArrayList<>(List.of("archive", uri, "--min", min, "--max", max));
    args.addAll(List.of(more));
    Run archive = jar(jar, backend, args.toArray(String[]::new));
    assertThat(archive.exitCode())
        .as("%s: archive exit code; stderr: %s", backend.name(), archive.err())
        .isZero();
    Run show = jar(jar, backend, "show", "archived", uri);
    assertThat(show.exitCode())
        .as("%s: show archived exit code; stderr: %s", backend.name(), show.err())
        .isZero();
    return show;
  }

  /** Runs {@code jar} with {@code args} and the backend's settings as {@code --conf}. */
  private Run jar(Path jar, Backend backend, String... args)
      throws IOException, InterruptedException {
    // C1 only, as the launcher next to the jar runs it (C2 nearly doubled a run's CPU here)
    List<String> command =
        new ArrayList<>(
            List.of(JAVA.toString(), "-XX:TieredStopAtLevel=1", "-jar", jar.toString()));
    command.addAll(List.of(args));
    backend.config().forEach((key, value) -> command.addAll(List.of("--conf", key + "=" + value)));
    Path out = Files.createTempFile(work, "out", ".txt");
    Path err = Files.createTempFile(work, "err", ".txt");
    Process process =
        new ProcessBuilder(command)
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    if (!process.waitFor(RUN_LIMIT_MINUTES, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new AssertionError(backend.name() + ": the jar did not end: " + command);
    }
    return new Run(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }
}
