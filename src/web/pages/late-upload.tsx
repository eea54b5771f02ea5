import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ComponentType, useEffect, useId } from 'react';

type FormPageModule = typeof import('../form/form-page');
type FileQuestionModule = typeof import('../form/file-question');

export interface LateUploadProps {
  answerKey: string;
  label: string;
  /** The upload converted: the checklist is read again and shows it Received. */
  onConverted: () => void;
}

/**
 * One awaited document's upload after submit, through the form's own upload tools (the same
 * controller, checks, progress and conversion polling as a file question), so there is one
 * upload path. The form page's module and the upload control's are handed in rather than
 * imported, so the bundler keeps their code in their own chunks instead of splitting it apart.
 */
export function lateUploadOf(
  form: FormPageModule,
  files: FileQuestionModule,
): ComponentType<LateUploadProps> {
  return function LateUpload({ answerKey, label, onConverted }: LateUploadProps) {
    const queryClient = useQueryClient();
    const session = form.useFormSession();
    const inputId = useId();
    const tools = session.startFormTools((owner) => {
      owner.answers.setModel(form.answerModel);
      return form.createFormTools(queryClient, owner);
    });
    const { data: documents } = useQuery(form.documentAnswersQueryOptions);
    const converted = Boolean(documents?.[answerKey]);

    useEffect(() => {
      if (converted) onConverted();
    }, [converted, onConverted]);

    return (
      <form.FormToolsContext value={tools}>
        <files.SignedInFileQuestion
          label={label}
          deletable={false}
          answerKey={answerKey}
          inputId={inputId}
          helpId={undefined}
          errorId={`${inputId}-errors`}
          invalid={false}
          required={false}
        />
      </form.FormToolsContext>
    );
  };
}
