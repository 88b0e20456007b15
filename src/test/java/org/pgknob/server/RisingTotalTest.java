package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RisingTotalTest {
  @Test
  void theFirstReadingHasNoRiseAndEachLaterOneTheIncrease() {
    RisingTotal total = new RisingTotal();

    assertEquals(0, total.rise(1000));
    assertEquals(30, total.rise(1030));
    assertEquals(0, total.rise(1030));
  }

  @Test
  void aDipFromAChildReapedBetweenTwoReadsIsNotCountedTwiceWhenTheTotalComesBack() {
    RisingTotal total = new RisingTotal();
    total.rise(1000);

    // a child of 200 ticks was reaped between the reading of its parent and its own: gone from
    // this reading, in its parent's figure at the next one, which also has 10 new ticks
    assertEquals(0, total.rise(800));
    assertEquals(10, total.rise(1010));
  }

  @Test
  void aTotalThatCouldNotBeReadHasNoRiseAndLeavesTheHighestAsItWas() {
    RisingTotal total = new RisingTotal();
    total.rise(1000);

    assertEquals(0, total.rise(-1));
    assertEquals(5, total.rise(1005));
  }
}
