package io.timelinearchive.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tables Apache Hudi 1.0.1 wrote (table version 8), lengthened to a size by {@link
 * Hudi1TimelineLengthener}, built once and kept under {@code archive-bench/target/hudi1-tables/} as
 * {@link HudiWrittenTables} keeps 0.15's: built in a scratch folder and renamed into place.
 */
final class Hudi1WrittenTables {
  private static final Logger LOG = LoggerFactory.getLogger(Hudi1WrittenTables.class);

  /** The narrow shape's commits, as 0.15's {@code HudiWriter.Shape.NARROW} has them. */
  static final int COMMITS = HudiWriter.Shape.NARROW.commits();

  /** A built table: where it is and how many instant files its timeline holds. */
  record Table(Path dir, int instantFiles) {}

  private final Path cache;
  private final Hudi1Side hudi1;

  Hudi1WrittenTables(Path cache, Hudi1Side hudi1) {
    this.cache = cache;
    this.hudi1 = hudi1;
  }

  /** The cache next to the running bench's jar or classes: {@code archive-bench/target/}. */
  static Hudi1WrittenTables besideBuild() throws IOException {
    String override = System.getProperty("bench.hudi1-table-cache");
    return new Hudi1WrittenTables(
        override != null
            ? Path.of(override)
            : HudiWrittenTables.benchTarget().resolve("hudi1-tables"),
        Hudi1Side.locate());
  }

  /** The narrow table lengthened to at least {@code instantFiles} instant files. */
  Table get(int instantFiles) throws Exception {
    Path dir = cache.resolve("narrow-" + instantFiles);
    if (!Files.isDirectory(dir)) {
      Path base = written();
      Path scratch = cache.resolve(dir.getFileName() + ".building");
      Tables.delete(scratch);
      Tables.copy(base, scratch);
      int files = Hudi1TimelineLengthener.lengthen(scratch, instantFiles);
      // every table the figures use is one Hudi 1.0.1's own reader takes as valid
      ChildJvm.Outcome check = hudi1.check(scratch, cache.resolve("logs"));
      if (check.exit() != 0) {
        throw new IllegalStateException(
            "Hudi 1.0.1 finds the lengthened table "
                + scratch
                + " invalid: "
                + check.stdout().lines().filter(l -> l.startsWith("BAD ")).limit(5).toList()
                + " "
                + check.stderr().lines().limit(5).toList());
      }
      Files.move(scratch, dir, StandardCopyOption.ATOMIC_MOVE);
      LOG.info("built {} ({} instant files)", dir, files);
    }
    return new Table(dir, count(dir));
  }

  /** The small table Hudi 1.0.1's write client wrote, as it left it. */
  Path written() throws Exception {
    Path base = cache.resolve("narrow-written");
    if (!Files.isDirectory(base)) {
      Path scratch = cache.resolve(base.getFileName() + ".building");
      Tables.delete(scratch);
      Files.createDirectories(cache);
      LOG.info("writing the narrow table with Hudi 1.0.1's write client ({} commits)", COMMITS);
      hudi1.write(scratch, COMMITS, cache.resolve("logs"));
      Files.move(scratch, base, StandardCopyOption.ATOMIC_MOVE);
    }
    return base;
  }

  static int count(Path table) throws IOException {
    return Hudi1TimelineLengthener.instantFiles(Hudi1TimelineLengthener.timeline(table))
        .values()
        .stream()
        .mapToInt(List::size)
        .sum();
  }
}
