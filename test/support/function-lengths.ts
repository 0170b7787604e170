import { readFileSync } from 'node:fs'
import { parse } from '@babel/parser'

/** A function of a source file: how many lines are its own (nested functions' left out), and how many in all. */
export type FunctionLength = { readonly file: string; readonly line: number; readonly name: string; readonly ownLines: number; readonly lines: number }

type Node = { readonly type: string; readonly loc?: { readonly start: { readonly line: number }; readonly end: { readonly line: number } }; readonly [key: string]: unknown }

const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression', 'ObjectMethod', 'ClassMethod', 'ClassPrivateMethod'])

/** Every function of a TypeScript file with the lines of its own. */
export function functionLengths(file: string): FunctionLength[] {
  const ast = parse(readFileSync(file, 'utf8'), { sourceType: 'module', plugins: ['typescript'] }) as unknown as Node
  const found: FunctionLength[] = []
  const visit = (node: Node, name: string): void => {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'loc' || key === 'leadingComments' || key === 'trailingComments') continue
      for (const child of Array.isArray(value) ? value : [value]) {
        if (typeof child !== 'object' || child === null || typeof (child as Node).type !== 'string') continue
        const inner = child as Node
        if (FUNCTIONS.has(inner.type)) measure(inner, nameOf(inner, node, name))
        else visit(inner, name)
      }
    }
  }
  const measure = (fn: Node, name: string): void => {
    const start = fn.loc?.start.line ?? 0
    const end = fn.loc?.end.line ?? 0
    const nested: Node[] = []
    const collect = (node: Node): void => {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'loc') continue
        for (const child of Array.isArray(value) ? value : [value]) {
          if (typeof child !== 'object' || child === null || typeof (child as Node).type !== 'string') continue
          if (FUNCTIONS.has((child as Node).type)) nested.push(child as Node)
          else collect(child as Node)
        }
      }
    }
    collect(fn)
    const own = new Set<number>()
    for (let line = start; line <= end; line++) own.add(line)
    for (const inner of nested) {
      // A nested function's first and last lines are shared with the code around it.
      for (let line = (inner.loc?.start.line ?? 0) + 1; line < (inner.loc?.end.line ?? 0); line++) own.delete(line)
    }
    found.push({ file, line: start, name, ownLines: own.size, lines: end - start + 1 })
    for (const inner of nested) measure(inner, nameOf(inner, fn, name))
  }
  visit(ast, '')
  return found
}

function nameOf(fn: Node, parent: Node, outer: string): string {
  const key = (fn.key ?? fn.id) as { name?: string } | undefined
  const own = key?.name ?? ((parent.id as { name?: string } | undefined)?.name) ?? ((parent.key as { name?: string } | undefined)?.name) ?? '(anonymous)'
  return outer === '' ? own : `${outer} > ${own}`
}
