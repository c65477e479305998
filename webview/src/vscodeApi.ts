/** The VS Code webview API, typed: the one object a webview gets to talk to its host and keep view state. */

export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare const acquireVsCodeApi: () => VsCodeApi;

/** The panel's API object; VS Code hands it out once per webview. */
export function acquireApi(): VsCodeApi {
  return acquireVsCodeApi();
}
