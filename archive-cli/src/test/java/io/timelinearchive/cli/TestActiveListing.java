package io.timelinearchive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TestActiveListing {
  @Test
  void namesWithAnInstantSuffixButNoNumericTimeLookMisnamed() {
    assertThat(ActiveListing.misnamedInstant("abc.commit"))
        .contains("instant time 'abc' is not a number");
    assertThat(ActiveListing.misnamedInstant("2026-01-01.deltacommit.requested")).isPresent();
    assertThat(ActiveListing.misnamedInstant("x.inflight")).isPresent();
    assertThat(ActiveListing.misnamedInstant("x.clean.inflight")).isPresent();
  }

  @Test
  void otherFilesOfHoodieAreNotInstants() {
    assertThat(ActiveListing.misnamedInstant("hoodie.properties")).isEmpty();
    assertThat(ActiveListing.misnamedInstant("hoodie.properties.backup")).isEmpty();
    assertThat(ActiveListing.misnamedInstant(".20260101000000000.commit.crc")).isEmpty();
    assertThat(ActiveListing.misnamedInstant("x.commit.done")).isEmpty();
    assertThat(ActiveListing.misnamedInstant("x.inflight.requested")).isEmpty();
    assertThat(ActiveListing.misnamedInstant("commit")).isEmpty();
  }
}
