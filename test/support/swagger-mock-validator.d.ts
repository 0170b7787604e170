// The package ships no types (its `types` entry names a file it does not publish); these are the
// parts the cross-check uses, as its README and dist describe them.
declare module '@pactflow/swagger-mock-validator' {
  /** One disagreement between a pact interaction and the document. */
  export type ValidationResult = {
    code: string
    message: string
    type: 'error' | 'warning'
    mockDetails: { interactionDescription: string; location: string; value: unknown }
    specDetails: { location: string; pathMethod: string | null; pathName: string | null }
  }

  /** The outcome of validating one pact against one document. */
  export type ValidationOutcome = {
    success: boolean
    failureReason?: string
    errors: ValidationResult[]
    warnings: ValidationResult[]
  }

  /** Paths (or URLs) of the document and the pact; the flags are strings, as on the command line. */
  export type ValidateOptions = {
    specPathOrUrl: string
    mockPathOrUrl: string
    additionalPropertiesInResponse?: 'true' | 'false'
    requiredPropertiesInResponse?: 'true' | 'false'
  }

  /** Builds the validator. */
  export const SwaggerMockValidatorFactory: {
    create(): { validate(options: ValidateOptions): Promise<ValidationOutcome> }
  }
}
