import { AppError } from '../kernel/index.js';
import { ErrorCode, type WireError } from '../protocol/wire/error-codes.js';

/**
 * A draft exam with validator complaints the instructor has neither fixed (edited the item) nor accepted cannot be
 * published (409 EXAM_COMPLAINTS_OPEN); `items` names them for pages, the message for people.
 */
export class ExamComplaintsOpenError extends AppError {
  constructor(readonly items: number[]) {
    super(
      ErrorCode.EXAM_COMPLAINTS_OPEN,
      `검토 지적이 남은 문항이 있어 게시하지 않았습니다: ${items.join(', ')}번. 문항을 고치거나, 지적을 읽고 그대로 두기로 한 뒤 게시하세요.`,
    );
    this.name = 'ExamComplaintsOpenError';
  }

  override toWire(): WireError & { items: number[] } {
    return { ...super.toWire(), items: this.items };
  }
}
