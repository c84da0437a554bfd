package io.timelinearchive.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.timeline.InstantFileName;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Fuzzing of the instant file name parser: any string gives a result, never an exception, and a
 * name it reads as an instant is the name that instant is written as (but for one alias of Hudi's).
 */
class TestInstantNameFuzzing {
  private static final String[] PARTS = {
    "commit",
    "deltacommit",
    "replacecommit",
    "compaction",
    "logcompaction",
    "clean",
    "rollback",
    "savepoint",
    "restore",
    "indexing",
    "schemacommit",
    "requested",
    "inflight",
    "completed",
    "archive",
    "commits_",
    "hoodie",
    "",
    "crc",
    "COMMIT",
    "ınflight",
    "commit\n",
    "٣",
    "𝟘"
  };

  @Property
  void anyString(@ForAll String name) {
    check(name);
  }

  @Property
  void instantLikeNames(@ForAll("instantLike") String name) {
    check(name);
  }

  @Provide
  Arbitrary<String> instantLike() {
    Arbitrary<String> time =
        Arbitraries.oneOf(
            Arbitraries.strings().numeric().ofMinLength(0).ofMaxLength(24),
            Arbitraries.strings().withChars("0123456789٠١٢٣").ofMaxLength(20),
            Arbitraries.strings().numeric().ofLength(17));
    Arbitrary<String> part =
        Arbitraries.oneOf(Arbitraries.of(PARTS), Arbitraries.strings().ofMaxLength(12));
    Arbitrary<String> separator = Arbitraries.of(".", ".", ".", "..", "", "_", "/", ". ");
    return Combinators.combine(
            time, separator, part, separator, part, Arbitraries.of("", "", "", ".", "\n", " "))
        .as((t, s1, p1, s2, p2, end) -> t + s1 + p1 + s2 + p2 + end);
  }

  private static void check(String name) {
    InstantFileName.Result result = InstantFileName.parse(name);
    assertThat(result).isNotNull();
    if (result instanceof InstantFileName.Result.Parsed parsed) {
      String written = InstantFileName.of(parsed.instant());
      assertThat(InstantFileName.parse(written))
          .as("what the name %s of %s reads as", written, parsed.instant())
          .isEqualTo(parsed);
      if (!written.equals(name)) {
        // The one alias, found by this property: Hudi writes a commit's inflight file as
        // T.inflight (for backwards compatibility) and its HoodieInstant reads T.commit.inflight,
        // the general .<action>.inflight form, as the same instant; so do we.
        assertThat(name)
            .as("a name read as %s but written %s", parsed.instant(), written)
            .isEqualTo(written.replace(".inflight", ".commit.inflight"));
      }
    }
  }
}
