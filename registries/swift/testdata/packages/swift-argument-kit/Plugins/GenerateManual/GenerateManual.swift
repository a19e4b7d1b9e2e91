import PackagePlugin

@main
public struct GenerateManualPlugin: CommandPlugin {
  public func performCommand(context: PluginContext, arguments: [String]) async throws {}
}
