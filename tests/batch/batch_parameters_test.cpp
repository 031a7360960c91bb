// SPDX-License-Identifier: MIT
// The batch parameters by name (batch/batch_parameters.h), as the CLI and Python set them.
#include "batch/batch_parameters.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace formica::batch {
namespace {

TEST(BatchParameters, EveryNameSetsItsField) {
  BatchConfig config;
  set_batch_parameter(config, "backend", "cpu");
  set_batch_parameter(config, "time_limit", "2.5");
  set_batch_parameter(config, "kicks", "400");
  set_batch_parameter(config, "seed", "17");
  set_batch_parameter(config, "threads", "3");
  set_batch_parameter(config, "walks", "5");
  set_batch_parameter(config, "kick_segment", "12");
  set_batch_parameter(config, "ls-neighbours", "8");
  set_batch_parameter(config, "neighbour_lists", "nearest");
  set_batch_parameter(config, "local-search", "or-opt");
  EXPECT_EQ(config.backend, Backend::Cpu);
  EXPECT_EQ(config.time_limit, 2.5);
  EXPECT_EQ(config.kicks, 400);
  EXPECT_EQ(config.seed, 17u);
  EXPECT_EQ(config.threads, 3);
  EXPECT_EQ(config.walks, 5);
  EXPECT_EQ(config.kick_segment, 12);
  EXPECT_EQ(config.neighbours, 8);
  EXPECT_EQ(config.neighbour_lists, NeighbourShape::Nearest);
  EXPECT_EQ(config.local_search, localsearch::LocalSearchKind::OrOpt);
  const nlohmann::json json = config.to_json();
  EXPECT_EQ(json["local_search"], "or-opt");
  EXPECT_EQ(json["ls_neighbours"], 8);
  EXPECT_EQ(json["kick_segment"], 12);
  EXPECT_EQ(batch_parameters().size(), 10u);
}

TEST(BatchParameters, BadNamesAndValuesSayWhatIsValid) {
  BatchConfig config;
  const auto message = [&](const char* name, const char* value) {
    try {
      set_batch_parameter(config, name, value);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("rho", "0.5"),
            "unknown batch parameter 'rho' (valid: backend, time-limit, kicks, seed, threads, walks, kick-segment, "
            "ls-neighbours, neighbour-lists, local-search)");
  EXPECT_EQ(message("kicks", "many"), "--kicks: 'many' is not a number");
  EXPECT_EQ(message("backend", "tpu"), "unknown --backend 'tpu' (valid: auto, cpu, cuda)");
  EXPECT_EQ(message("neighbour-lists", "octant"), "unknown --neighbour-lists 'octant' (valid: nearest, quadrant)");
  EXPECT_NE(message("local-search", "lk").find("unknown --local-search 'lk' (valid: none, two-opt, or-opt, three-opt)"),
            std::string::npos);
}

}  // namespace
}  // namespace formica::batch
