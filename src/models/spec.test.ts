import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { parseModelSpec, storedSpecLabel, toModelSpec } from './spec.js';

const SHA = 'ab'.repeat(32);

const errorOf = (spec: string, where = {}) => {
  try {
    parseModelSpec(spec, where);
  } catch (error) {
    return error as InputError;
  }
  throw new Error(`'${spec}' parsed`);
};

describe('gguf spec settings', () => {
  it('takes ctx, template, threads and gpuLayers as a query, onto the object form’s fields', () => {
    expect(parseModelSpec('gguf:./m.gguf?ctx=4096&template=raw&threads=1&gpuLayers=0')).toEqual({
      provider: 'gguf',
      model: './m.gguf',
      label: 'gguf:./m.gguf?ctx=4096&template=raw&threads=1&gpuLayers=0',
      contextSize: 4096,
      chatTemplate: 'raw',
      threads: 1,
      gpuLayers: 0,
    });
    expect(parseModelSpec('gguf:../m.gguf')).toEqual({
      provider: 'gguf',
      model: '../m.gguf',
      label: 'gguf:../m.gguf',
      chatTemplate: 'auto',
    });
  });

  it('after an hf: path, before its #sha256= pin (URL order); the pin stays on the model', () => {
    const spec = parseModelSpec(`gguf:hf:OWNER/REPO/dir/FILE.gguf?ctx=4096#sha256=${SHA}`);
    expect(spec).toMatchObject({ model: `hf:OWNER/REPO/dir/FILE.gguf#sha256=${SHA}`, contextSize: 4096 });
    expect(errorOf(`gguf:hf:OWNER/REPO/FILE.gguf#sha256=${SHA}?ctx=4096`).message).toContain(
      'put the settings before the pin',
    );
  });

  it('names the setting and the value given when one is wrong', () => {
    const cases: [string, RegExp][] = [
      [
        'gguf:m.gguf?context=4096',
        /unknown setting 'context'; expected one of ctx, template, threads, gpuLayers/,
      ],
      ['gguf:m.gguf?ctx=big', /ctx must be a positive integer, got 'big'/],
      ['gguf:m.gguf?ctx=0', /ctx must be a positive integer, got '0'/],
      ['gguf:m.gguf?ctx=4096.5', /ctx must be a positive integer, got '4096.5'/],
      ['gguf:m.gguf?template=chatml', /template must be auto, model or raw, got 'chatml'/],
      ['gguf:m.gguf?threads=-1', /threads must be a positive integer, got '-1'/],
      ['gguf:m.gguf?gpuLayers=99', /gpuLayers must be 0: waver runs gguf models on the CPU only, got '99'/],
      ['gguf:m.gguf?ctx=1&ctx=2', /ctx is given twice/],
      ['gguf:m.gguf?ctx', /ctx needs a value/],
      ['gguf:m.gguf?ctx=', /ctx needs a value/],
      ['gguf:m.gguf?', /unknown setting ''/],
      ['gguf:?ctx=4096', /names no model file before '\?'/],
    ];
    for (const [spec, message] of cases) {
      const error = errorOf(spec, { field: '--models' });
      expect(error, spec).toBeInstanceOf(InputError);
      expect(error.message, spec).toMatch(message);
      expect(error.message, spec).toContain(`'${spec}'`);
      expect(error.field, spec).toBe('--models');
    }
  });

  it('the object form takes the same settings through the same schema', () => {
    const { label: _label, ...fromString } = parseModelSpec('gguf:./m.gguf?ctx=4096&template=raw&threads=2');
    expect(
      toModelSpec({
        provider: 'gguf',
        model: './m.gguf',
        contextSize: 4096,
        chatTemplate: 'raw',
        threads: 2,
      }),
    ).toEqual(fromString);
    const error = (() => {
      try {
        toModelSpec({ provider: 'gguf', model: './m.gguf', contextSize: 0 }, { field: 'models.0' });
      } catch (e) {
        return e as InputError;
      }
    })();
    expect(error).toBeInstanceOf(InputError);
    expect(error?.field).toBe('models.0.contextSize');
    expect(error?.reason).toBe('must be a positive integer');
  });

  it('other providers keep a ? in their model id', () => {
    expect(parseModelSpec('openai:model?v=2').model).toBe('model?v=2');
  });
});

describe('storedSpecLabel', () => {
  it("labels a stored run's spec, one of a provider this process has not registered included", () => {
    expect(storedSpecLabel('openai:gpt-4o-mini')).toBe('openai:gpt-4o-mini');
    expect(storedSpecLabel({ provider: 'gguf', model: './m.gguf' })).toBe('gguf:./m.gguf');
    // A run made with a registered provider, read by a process without it.
    expect(storedSpecLabel({ provider: 'myservice', model: 'small', label: 'myservice:small' })).toBe(
      'myservice:small',
    );
    expect(storedSpecLabel({ provider: 'myservice', model: 'small' })).toBe(
      '{"provider":"myservice","model":"small"}',
    );
  });

  it("labels a built-in's spec stored with another provider's field as before", () => {
    // Before each provider had its own fields, every object spec was stored with chatTemplate: 'auto'.
    expect(
      storedSpecLabel({
        provider: 'openai',
        model: 'm',
        baseURL: 'http://user:key@127.0.0.1:9/v1',
        chatTemplate: 'auto',
      }),
    ).toBe('openai:m@http://127.0.0.1:9/v1');
  });
});

describe('base URLs in a spec', () => {
  it('drop user:password@ from the base URL and the label, and from the object form', () => {
    const spec = parseModelSpec('openai:m@http://user:sk-secret@127.0.0.1:8000/v1');
    expect(spec.baseURL).toBe('http://127.0.0.1:8000/v1');
    expect(spec.label).toBe('openai:m@http://127.0.0.1:8000/v1');
    expect(JSON.stringify(spec)).not.toContain('sk-secret');
    const object = toModelSpec({
      provider: 'openai',
      model: 'm',
      baseURL: 'https://u:sk-x@h.example/v1',
    });
    expect(JSON.stringify(object)).not.toContain('sk-x');
  });

  it('take the scheme in any case, and refuse one that is not http(s) instead of reading it into the model id', () => {
    expect(parseModelSpec('openai:m@HTTP://127.0.0.1:8000/v1')).toMatchObject({
      model: 'm',
      baseURL: 'http://127.0.0.1:8000/v1',
    });
    expect(() => parseModelSpec('openai:m@ftp://127.0.0.1/v1')).toThrow(
      /the base URL must start with http:\/\/ or https:\/\//,
    );
    // An '@' not followed by a scheme stays part of the model id.
    expect(parseModelSpec('openai:org@model').model).toBe('org@model');
  });
});
