// The types of client-types.js, for the test that checks the committed client types.
export const DOCUMENTS: { url: string; file: string }[];
export function clientTypes(app: {
  inject(request: { method: 'GET'; url: string }): Promise<{ json(): unknown }>;
}): Promise<Record<string, string>>;
