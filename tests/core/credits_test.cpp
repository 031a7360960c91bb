// SPDX-License-Identifier: MIT
// The ledger of who found a run's improvements (core/credits.h): gains add up to the first length
// less the last, a merge splits its drop between the donor and the merge.
#include <gtest/gtest.h>

#include "core/credits.h"

namespace formica {
namespace {

TEST(Credits, FirstObservationStartsTheLedgerAndLongerLengthsAreNoImprovement) {
  Credits credits;
  EXPECT_FALSE(credits.started());
  EXPECT_EQ(credits.total(), 0);
  credits.credit(Finder::Search, 1000);
  EXPECT_TRUE(credits.started());
  EXPECT_EQ(credits.first(), 1000);
  EXPECT_EQ(credits.total(), 0);
  credits.credit(Finder::Search, 900);
  credits.credit(Finder::Polish, 950);  // longer: nothing
  credits.credit(Finder::Polish, 880);
  credits.start(5);  // already started: ignored
  EXPECT_EQ(credits.gain(Finder::Search), 100);
  EXPECT_EQ(credits.gain(Finder::Polish), 20);
  EXPECT_EQ(credits.last(), 880);
  EXPECT_EQ(credits.sum_of_gains(), credits.total());
  EXPECT_DOUBLE_EQ(credits.share(Finder::Search), 100.0 / 120.0);
  EXPECT_DOUBLE_EQ(credits.share(Finder::Merge), 0.0);
}

TEST(Credits, AMergeGivesTheDonorWhatItHadOverTheBestAndTheMergeTheRest) {
  Credits credits;
  credits.start(1000);
  // The colonies reached 950 before the merge; the host's tour was 900; the merge made 880.
  credits.credit_merge(950, 900, Finder::Eax, 880);
  EXPECT_EQ(credits.gain(Finder::Search), 50);
  EXPECT_EQ(credits.gain(Finder::Eax), 50);
  EXPECT_EQ(credits.gain(Finder::Merge), 20);
  // A donor longer than the best tour: the whole drop is the merge's.
  credits.credit_merge(880, 890, Finder::LinKernighan, 870);
  EXPECT_EQ(credits.gain(Finder::LinKernighan), 0);
  EXPECT_EQ(credits.gain(Finder::Merge), 30);
  // A donor taken as it is (the merge found nothing beyond it), and no donor at all.
  credits.credit_merge(870, 800, Finder::Ranks, 800);
  EXPECT_EQ(credits.gain(Finder::Ranks), 70);
  credits.credit_merge(800, -1, Finder::Ranks, 790);
  EXPECT_EQ(credits.gain(Finder::Merge), 40);
  // A merge that found nothing.
  credits.credit_merge(790, -1, Finder::LinKernighan, 790);
  EXPECT_EQ(credits.last(), 790);
  EXPECT_EQ(credits.sum_of_gains(), credits.total());
  EXPECT_EQ(credits.total(), 210);
}

}  // namespace
}  // namespace formica
