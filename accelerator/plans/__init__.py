"""Stage plans: the Substrait part of a stage descriptor, executed on DataFusion with Flink's
semantics (see docs/architecture.md, "The stage contract")."""

from accelerator.plans.stage import PlanError, StagePlan

__all__ = ["PlanError", "StagePlan"]
