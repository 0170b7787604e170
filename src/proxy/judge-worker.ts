// A worker thread that judges one large answer, so that parsing and checking it never holds the
// proxy's event loop (src/proxy/judging.ts starts it).
import { parentPort, workerData } from 'node:worker_threads'
import { judgeAnswer, type JudgedRequest, type ObservedAnswer } from '../spec-rules/answer-rules.js'

const { request, answer } = workerData as { readonly request: JudgedRequest; readonly answer: ObservedAnswer }
parentPort?.postMessage(judgeAnswer(request, answer))
