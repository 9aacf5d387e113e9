// Where the submitter's own lines go. Job output is always raw on stdout. The submitter's own lines are
// plain text (info on stdout, warnings and errors on stderr, as Ray's CLI) or, with --log-format json, one JSON
// object per line on stderr. Everything the submitter itself writes is redacted.
import type { Redactor } from '@rayjob/ray-client';

export interface Writers {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export type Level = 'info' | 'warn' | 'error';
export type Fields = Record<string, string | number | boolean | undefined>;

export interface Reporter {
  /** Raw job log text, exactly as received. */
  jobOutput(text: string): void;
  line(level: Level, message: string, fields?: Fields): void;
  /** Ray CLI's outcome lines: in text mode always on stdout without a prefix, exactly as Ray prints them. */
  status(level: Level, message: string, fields?: Fields): void;
}

export function createReporter(options: {
  format: 'text' | 'json';
  writers: Writers;
  redact: Redactor;
  now: () => number;
  /** Added to every JSON line. */
  context: () => Fields;
}): Reporter {
  const { writers, redact } = options;
  // A job's last output may lack a final newline (Ray appends infrastructure errors that way); a status line
  // printed after it must still start on its own line.
  let stdoutAtLineStart = true;
  const toStdout = (text: string) => {
    if (text === '') return;
    writers.stdout(text);
    stdoutAtLineStart = text.endsWith('\n');
  };

  const json = (level: Level, message: string, fields: Fields) => {
    const entry = { time: new Date(options.now()).toISOString(), level, msg: message, ...options.context(), ...fields };
    writers.stderr(`${redact(JSON.stringify(entry))}\n`);
  };
  const plainStdout = (message: string) => toStdout(`${stdoutAtLineStart ? '' : '\n'}${redact(message)}\n`);

  return {
    jobOutput: toStdout,
    line(level, message, fields = {}) {
      if (options.format === 'json') return json(level, message, fields);
      if (level === 'info') return plainStdout(message);
      writers.stderr(`${level === 'error' ? 'ERROR' : 'WARNING'}: ${redact(message)}\n`);
    },
    status(level, message, fields = {}) {
      if (options.format === 'json') return json(level, message, fields);
      plainStdout(message);
    },
  };
}
