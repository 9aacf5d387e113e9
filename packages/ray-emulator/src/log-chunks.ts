// Splits new log text into frames the way Ray's file tailer does (ray-jobs-api.md §3.8): up to 10 lines, or
// just over 20 000 characters, newlines kept; at end of file whatever was read goes out, even a partial line.

export function chunkLogText(text: string, maxLines = 10, maxChars = 20_000): string[] {
  if (text === '') return [];
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const chunks: string[] = [];
  let current: string[] = [];
  let chars = 0;
  for (const line of lines) {
    if (current.length >= maxLines || chars > maxChars) {
      chunks.push(current.join(''));
      current = [];
      chars = 0;
    }
    current.push(line);
    chars += line.length;
  }
  if (current.length > 0) chunks.push(current.join(''));
  return chunks;
}
