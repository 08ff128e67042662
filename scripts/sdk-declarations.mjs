// Writes the SDK's type files out in full: its request and answer types are inferred from the server's zod schemas
// (src/lib/api-contract), and a package that installs without zod cannot resolve those, so each alias is expanded into
// the plain object, union and literal types it stands for.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** The source files whose exported type aliases are written out in full. */
export const INFERRED_TYPE_FILES = ['types.ts', 'developer-types.ts'];
const MAX_DEPTH = 12;

function compilerOptions(tsconfig) {
  const { config, error } = ts.readConfigFile(tsconfig, (file) => readFileSync(file, 'utf8'));
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  return ts.parseJsonConfigFileContent(config, ts.sys, path.dirname(tsconfig)).options;
}

/** A type as TypeScript source, with no name that would need zod (or any file but this one) to resolve. */
function printer(checker) {
  const key = (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));
  /** `optional`: the type of an `x?:` field, which admits undefined already (null stays: the API sends it). */
  function print(type, depth, optional = false) {
    if (depth > MAX_DEPTH) throw new Error(`type nested deeper than ${MAX_DEPTH}: ${checker.typeToString(type)}`);
    const f = type.flags;
    if (f & ts.TypeFlags.StringLiteral || f & ts.TypeFlags.NumberLiteral) return JSON.stringify(type.value);
    if (
      f &
      (ts.TypeFlags.String |
        ts.TypeFlags.Number |
        ts.TypeFlags.Boolean |
        ts.TypeFlags.BooleanLiteral |
        ts.TypeFlags.Null |
        ts.TypeFlags.Undefined |
        ts.TypeFlags.Unknown |
        ts.TypeFlags.Never)
    )
      return checker.typeToString(type);
    if (f & ts.TypeFlags.Union) {
      const members = optional ? type.types.filter((t) => !(t.flags & ts.TypeFlags.Undefined)) : type.types;
      const parts = members.map((t) => print(t, depth + 1));
      // `true | false` is how the checker holds boolean.
      const bool = parts.includes('true') && parts.includes('false');
      return [...new Set(bool ? ['boolean', ...parts.filter((p) => p !== 'true' && p !== 'false')] : parts)].join(
        ' | ',
      );
    }
    if (checker.isArrayType(type)) return `Array<${print(checker.getTypeArguments(type)[0], depth + 1)}>`;
    if (checker.isTupleType(type)) return `[${checker.getTypeArguments(type).map((t) => print(t, depth + 1))}]`;
    if (f & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) return object(type, depth);
    throw new Error(`no plain form for ${checker.typeToString(type)}`);
  }
  function object(type, depth) {
    if (type.getCallSignatures().length > 0) throw new Error(`a function type: ${checker.typeToString(type)}`);
    const pad = '  '.repeat(depth + 1);
    const members = checker.getIndexInfosOfType(type).map((i) => `${pad}[key: string]: ${print(i.type, depth + 1)};`);
    for (const prop of checker.getPropertiesOfType(type)) {
      const optional = (prop.flags & ts.SymbolFlags.Optional) !== 0;
      const doc = describedAs(prop);
      if (doc) members.push(`${pad}/** ${doc.replaceAll('*/', '*\\/')} */`);
      members.push(
        `${pad}${key(prop.name)}${optional ? '?' : ''}: ${print(checker.getTypeOfSymbol(prop), depth + 1, optional)};`,
      );
    }
    return members.length === 0 ? '{}' : `{\n${members.join('\n')}\n${'  '.repeat(depth)}}`;
  }
  return (type) => print(type, 0);
}

/** What the schema says of a field: its `.describe('…')` text where the field is written as a zod schema call. */
function describedAs(prop) {
  for (const declaration of prop.declarations ?? []) {
    if (!ts.isPropertyAssignment(declaration)) continue;
    let found = null;
    const visit = (node) => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        node.expression.name.text === 'describe' &&
        node.arguments.length === 1 &&
        ts.isStringLiteralLike(node.arguments[0])
      )
        found = node.arguments[0].text;
      // The outermost .describe() wins: it is the last one applied.
      if (found === null) ts.forEachChild(node, visit);
    };
    visit(declaration.initializer);
    if (found !== null) return found;
  }
  return null;
}

/** The leading /** … *\/ comment of a declaration, to keep its words in the written-out file. */
function docOf(node, text) {
  const ranges = ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [];
  return ranges
    .map((r) => text.slice(r.pos, r.end))
    .filter((c) => c.startsWith('/**'))
    .join('\n');
}

/**
 * Replaces `<typesDir>/sdk/<file>.d.ts` of each INFERRED_TYPE_FILES with its aliases written out in full, then removes
 * the declarations of everything outside the SDK (nothing refers to them any more) and checks that none is left.
 */
export function writeSdkDeclarations(sdkDir, typesDir) {
  const program = ts.createProgram(
    [path.join(sdkDir, 'index.ts')],
    compilerOptions(path.join(sdkDir, 'tsconfig.build.json')),
  );
  const checker = program.getTypeChecker();
  const print = printer(checker);
  for (const name of INFERRED_TYPE_FILES) {
    const source = program.getSourceFile(path.join(sdkDir, name));
    if (!source) throw new Error(`${name} is not part of the SDK`);
    const text = source.getFullText();
    const lines = [
      `// ${name.replace(/\.ts$/, '.d.ts')}: written out by scripts/sdk-declarations.mjs from src/lib/sdk/${name}.`,
    ];
    for (const statement of source.statements) {
      if (ts.isExportDeclaration(statement)) lines.push(statement.getText(source));
      if (!ts.isTypeAliasDeclaration(statement)) continue;
      if (!statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
      const type = checker.getTypeAtLocation(statement.name);
      const doc = docOf(statement, text);
      lines.push(`${doc ? `${doc}\n` : ''}export type ${statement.name.text} = ${print(type)};`);
    }
    writeFileSync(path.join(typesDir, 'sdk', name.replace(/\.ts$/, '.d.ts')), `${lines.join('\n')}\n`);
  }
  for (const entry of ts.sys.getDirectories(typesDir))
    if (entry !== 'sdk') rmSync(path.join(typesDir, entry), { recursive: true });
  for (const file of ts.sys.readDirectory(path.join(typesDir, 'sdk'), ['.d.ts'])) {
    const outside = /from ['"](zod|\.\.\/[^'"]*)['"]|import\(['"](zod|\.\.\/)/.exec(readFileSync(file, 'utf8'));
    if (outside) throw new Error(`${path.relative(typesDir, file)} still refers to ${outside[0]}`);
  }
}
