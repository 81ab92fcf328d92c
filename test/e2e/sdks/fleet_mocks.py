# The mocks the Python probe and the Python examples' harness run under (see README.md): each
# registration is recorded and answered with its inputs as the state, plus what the provider adds
# that programs read: an UpdateStrategy's `strategy` (its stages) and `updateStrategyId`.
import pulumi

registered = []


class Mocks(pulumi.runtime.Mocks):
    def new_resource(self, args: pulumi.runtime.MockResourceArgs):
        registered.append({"type": args.typ, "name": args.name, "inputs": args.inputs})
        state = dict(args.inputs)
        if args.typ == "fleet-update:index:UpdateStrategy":
            state["strategy"] = {"stages": args.inputs["stages"]}
            state["updateStrategyId"] = f"{args.name}-strategy-id"
        return [f"{args.name}-id", state]

    def call(self, args: pulumi.runtime.MockCallArgs):
        return {}
